// `kblaster profile` below the command line: the selected kernels built, then each
// profiled under ncu (or timed, saying why), as one result value (kind "profile",
// reports/schema/profile.schema.json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/exit_code.h"
#include "core/provenance.h"
#include "eval/loaded_repo.h"
#include "eval/profile_kernel.h"

namespace kblaster {

// What a profile run found: each kernel's profile, timing or reason.
struct ProfileRun {
  Provenance provenance;  // the caller's, with the GPU, nvcc, seed and times filled in
  NcuMetrics metrics = NcuMetrics::kblaster_list;
  MeasuredCeilings ceilings;                 // the device's; zero when skipped
  BuildReport builds;                        // empty when skipped
  std::vector<KernelProfileResult> kernels;  // one per selected kernel, in order
  std::string skipped;                       // why nothing ran on the GPU; "" when it did
};

// Builds every selected kernel of `repo` (which must outlive the run) and profiles each
// one that built, on inputs from one seed drawn for the run, printing the profiles to
// `text`. `settings` gives the profiler (which must outlive the call) and the metrics; the run
// fills in the rest. Without a CUDA device nothing is built and every kernel is skipped. Errors: no
// nvcc or harness, an unusable cache, harness failures.
Result<ProfileRun> run_profile(const LoadedRepo& repo, const BuildFlags& build,
                               ProfileSettings settings, Provenance provenance, std::ostream& text,
                               Session& session);

// The version of the profile result's JSON; reports/schema/profile.schema.json.
inline constexpr int kProfileSchemaVersion = 1;

// {"kind": "profile", "schema_version", "provenance", "metrics", "ceilings", "kernels"
// (to_json of each), "builds", and "skipped" when the GPU work was}.
nlohmann::json to_json(const ProfileRun& run);

// 3 when skipped; 1 when a kernel did not build; 3 when one was timed only (ncu missing
// or refused); else 0.
ExitCode profile_exit_code(const ProfileRun& run);

}  // namespace kblaster
