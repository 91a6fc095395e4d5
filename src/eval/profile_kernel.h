// `kblaster profile` for one built kernel: a run under Nsight Compute at its timed
// size, read into a profile, roofline position and performance state; or, without
// ncu or with its counters refused, the kernel timed instead, saying why.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "eval/build_step.h"
#include "eval/gpu_context.h"
#include "eval/measure_step.h"
#include "eval/profile_report.h"
#include "eval/profiler.h"
#include "eval/session.h"
#include "profile/roofline.h"

namespace kblaster {

// How to profile: with which profiler and metrics, where the CSVs go, on which inputs.
struct ProfileSettings {
  Profiler* profiler = nullptr;  // must outlive the call; a profile it cannot take is timed
  NcuMetrics metrics = NcuMetrics::kblaster_list;
  std::filesystem::path csv_dir;    // ncu's CSV goes to csv_dir/<kernel>[.full].csv
  std::filesystem::path repo_root;  // for the source's code signature
  MeasuredCeilings ceilings;
  std::uint64_t seed = 0;  // of the inputs profiled or timed; 0 = drawn per kernel
};

// What became of one kernel: profiled under ncu, timed instead, or skipped.
enum class ProfileStatus { profiled, timed_only, skipped };

// "profiled", "timed_only" or "skipped".
const char* profile_status_name(ProfileStatus status);

// One kernel's profile, or its timing and why there is no profile, or why it was skipped.
struct KernelProfileResult {
  std::string kernel;
  ProfileStatus status = ProfileStatus::skipped;
  std::optional<ProfileReport> report;     // when profiled
  std::optional<Measurement> measurement;  // when timed_only
  std::string why_no_profile;              // when timed_only or skipped
};

// Profiles built kernel `b` (it must have built) on `gpu`, printing the profile (or
// the timing and why) to `text`. Errors: a spec that does not plan, harness failures.
Result<KernelProfileResult> profile_kernel(const KernelBuild& b, GpuContext& gpu,
                                           const ProfileSettings& settings, std::ostream& text,
                                           Session& session);

// {"kernel", "status", and the profile's fields (profiled); else "profile": null,
// "why_no_profile", and the "measurement" when timed_only}. `ceilings` rate the timing.
nlohmann::json to_json(const KernelProfileResult& k, const MeasuredCeilings& ceilings);

}  // namespace kblaster
