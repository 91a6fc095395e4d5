#include "eval/profiler.h"

#include "eval/ncu_run.h"
#include "eval/seed_source.h"
#include "gpu/compiler.h"

namespace kblaster {

NcuProfiler NcuProfiler::from_environment(double timeout_s) {
  auto ncu = find_ncu(process_environment);
  if (!ncu) return NcuProfiler(std::nullopt, ncu.error().message, timeout_s);
  return NcuProfiler(*ncu, "", timeout_s);
}

Result<Profiled> NcuProfiler::profile(const ProfileTarget& t) {
  if (!ncu_) return Profiled{.report = std::nullopt, .why_none = why_no_ncu_};
  auto ran = run_under_ncu(*ncu_, t.build, t.size, t.metrics, t.csv, timeout_s_,
                           t.seed != 0 ? t.seed : draw_seed());
  if (!ran) return ran.error();
  if (ran->problem) return Profiled{.report = std::nullopt, .why_none = *ran->problem};
  auto report = read_profile(ran->csv, t.csv.string(), t.signature, t.roofline);
  if (!report) return report.error();
  return Profiled{.report = std::move(*report), .why_none = ""};
}

}  // namespace kblaster
