// What the GPU commands (verify, bench, profile, optimize) start from: the selected
// kernels built with their references and the harness running on the CUDA device;
// or, on a machine without one, nothing built and why.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/provenance.h"
#include "eval/build_step.h"
#include "eval/gpu_context.h"
#include "eval/loaded_repo.h"

namespace kblaster {

// The builds and the running harness of one GPU command, or why there is no GPU.
struct GpuRun {
  BuildReport builds;             // empty when skipped
  std::optional<GpuContext> gpu;  // nullopt: no CUDA device, and nothing was built
  std::string why_no_device;      // "no CUDA device present (…)" when gpu is nullopt
};

// Probes the device; with one, builds every selected kernel of `repo` (which must
// outlive the run: the builds point at its specs) and starts the harness, and fills
// in `provenance`'s GPU and nvcc. Errors: no nvcc, no harness, an unusable cache.
Result<GpuRun> start_gpu_run(const LoadedRepo& repo, const BuildFlags& build,
                             double launch_timeout_s, Provenance& provenance, Session& session);

// Adds a GPU command's "builds" to its result `j` ({} when nothing was built) and, when
// the GPU work was skipped, "skipped": why.
void add_builds(nlohmann::json& j, const BuildReport& builds, const std::string& skipped);

}  // namespace kblaster
