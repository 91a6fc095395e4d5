// `kblaster profile` for one built kernel: a run under Nsight Compute at its timed
// size, read into a profile, roofline position and performance state; or, without
// ncu or with its counters refused, the kernel timed instead, saying why.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "eval/build_step.h"
#include "eval/gpu_context.h"
#include "eval/profiler.h"
#include "eval/session.h"
#include "profile/roofline.h"

namespace kblaster {

struct ProfileSettings {
  Profiler* profiler = nullptr;  // must outlive the call; a profile it cannot take is timed
  NcuMetrics metrics = NcuMetrics::kblaster_list;
  std::filesystem::path csv_dir;    // ncu's CSV goes to csv_dir/<kernel>[.full].csv
  std::filesystem::path repo_root;  // for the source's code signature
  MeasuredCeilings ceilings;
};

struct KernelProfileResult {
  nlohmann::json json;  // {"kernel", the profile's fields} or {"kernel", "profile": null,
                        //  "why_no_profile", "measurement"}
  bool timed_only = false;
};

// Profiles built kernel `b` (it must have built) on `gpu`, printing the profile (or
// the timing and why) to `text`. Errors: a spec that does not plan, harness failures.
Result<KernelProfileResult> profile_kernel(const KernelBuild& b, GpuContext& gpu,
                                           const ProfileSettings& settings, std::ostream& text,
                                           Session& session);

}  // namespace kblaster
