// The build step shared by `kblaster build` and `kblaster run`: every selected
// kernel through the candidate builder, with one progress line per kernel.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "eval/loaded_repo.h"
#include "eval/session.h"
#include "gpu/candidate_builder.h"
#include "gpu/device_probe.h"
#include "gpu/harness_client.h"

namespace kblaster {

// Flags of the commands that build; defaults resolve against the repository.
struct BuildFlags {
  std::string arch;       // empty = [project].arch
  std::string cache_dir;  // empty = REPO/.kblaster/cache
};

struct KernelBuild {
  const KernelSpec* spec = nullptr;
  BuildResult result;
  std::optional<BuildResult> reference;  // a CPU or GPU reference, when built

  bool ok() const { return result.ok() && (!reference || reference->ok()); }
};

// The reference object of a build, for HarnessClient::load; nullopt when none was built.
std::optional<ReferenceObject> reference_object(const KernelBuild& build);

// Whether build_kernels also builds each kernel's CPU or GPU reference.
enum class ReferenceBuilds { skip, build };

struct BuildReport {
  std::string arch;
  std::string arch_reason;  // why this arch: "[project].arch", "auto: the GPU present", …
  std::filesystem::path cache_dir;
  std::string compiler_version;  // nvcc's "release X.Y, VX.Y.Z"
  std::vector<KernelBuild> kernels;
  int cache_hits = 0;
  int compiled = 0;
  int failed = 0;
};

// Builds every selected kernel of `repo`. Compile failures are recorded in the
// report; Errors are for a missing nvcc or an unusable cache directory.
Result<BuildReport> build_kernels(const LoadedRepo& repo, const BuildFlags& flags,
                                  const DeviceInfo& device, Session& session,
                                  ReferenceBuilds references = ReferenceBuilds::skip);

nlohmann::json to_json(const BuildReport& report);

}  // namespace kblaster
