// Profiling one built kernel at one size, behind an interface: the real one runs
// Nsight Compute on the harness and reads its CSV; tests pass their own.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "core/launch_plan.h"
#include "core/status.h"
#include "eval/build_step.h"
#include "eval/profile_report.h"
#include "gpu/ncu.h"

namespace kblaster {

// What to profile: a built kernel (it must have built) at one of its sizes.
struct ProfileTarget {
  const KernelBuild& build;
  const SizePlan& size;
  std::optional<CodeSignature> signature;  // of its source, for the state rules
  RooflineInputs roofline;                 // the size's bytes and FLOPs, the ceilings
  NcuMetrics metrics = NcuMetrics::kblaster_list;
  std::filesystem::path csv;  // where the raw profile is kept
  std::uint64_t seed = 0;     // of the inputs it runs on; 0 = drawn (draw_seed)
};

// A profile, or why there is none (no profiler, counters refused, the run failed):
// a finding the caller falls back from, not an Error.
struct Profiled {
  std::optional<ProfileReport> report;
  std::string why_none;  // set when `report` is not
};

class Profiler {
 public:
  virtual ~Profiler() = default;
  // Profiles `target` once. Errors are for the machinery only (a CSV that cannot be
  // read back, a profile with no kernel in it).
  virtual Result<Profiled> profile(const ProfileTarget& target) = 0;
};

// The real profiler: ncu --csv on a fresh harness (run_under_ncu), read into a
// ProfileReport. Constructed without ncu, every profile is `why_no_ncu`.
class NcuProfiler final : public Profiler {
 public:
  NcuProfiler(std::optional<NcuTool> ncu, std::string why_no_ncu, double timeout_s = 300.0)
      : ncu_(std::move(ncu)), why_no_ncu_(std::move(why_no_ncu)), timeout_s_(timeout_s) {}
  // The ncu `find_ncu` finds in the process environment, or why there is none.
  static NcuProfiler from_environment(double timeout_s = 300.0);
  bool available() const { return ncu_.has_value(); }
  const std::string& why_unavailable() const { return why_no_ncu_; }  // "" when available

  Result<Profiled> profile(const ProfileTarget& target) override;

 private:
  std::optional<NcuTool> ncu_;
  std::string why_no_ncu_;
  double timeout_s_;
};

}  // namespace kblaster
