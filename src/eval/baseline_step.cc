#include "eval/baseline_step.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "core/units.h"
#include "stats/quantile.h"
#include "stats/stopping_rule.h"

namespace kblaster {
namespace {

// A request should carry ~20 ms of GPU work, as a kernel's sample requests do.
constexpr double kRequestGpuSeconds = 0.02;
constexpr int kFirstRequestCalls = 3;

}  // namespace

Result<BaselineMeasurement> measure_baseline(HarnessClient& harness, const std::string& mode,
                                             double kernel_median_s, std::uint64_t seed,
                                             const BenchFlags& flags, Clock& clock) {
  BaselineMeasurement b;
  b.mode = mode;
  StoppingRule rule(flags.stop);
  // The stopping rule's time starts after the first request, whose importing torch, compiling
  // and warm-up calls are not the samples' time.
  std::optional<double> start;
  int count = kFirstRequestCalls;
  for (;;) {
    auto got = harness.baseline_sample(mode, count);
    if (!got) {
      // The module's failure, or a worker past its time, which ended the harness: said, and the
      // harness restored for what follows.
      b.failed = got.error().message;
      if (!harness.holds_load()) {
        KB_TRY(harness.restore_if_lost());
        // The inputs the next mode is timed on; no recheck follows, so no reference run (with a
        // PyTorch reference, a torch import under the launch limit).
        KB_TRY(harness.bench_prepare(seed, Against{}, /*expected=*/false));
      }
      return b;
    }
    b.runtime = got->runtime;
    for (double s : got->seconds) {
      rule.add(s);
      b.samples.push_back(s);
    }
    if (!start) start = clock.now_seconds();
    b.stop = rule.decide(clock.now_seconds() - *start);
    if (b.stop.reason != StopReason::keep_going) break;
    const double estimate = std::max(median_of(b.samples), 1e-7);
    count = std::clamp(static_cast<int>(kRequestGpuSeconds / estimate), 1, 1000);
  }
  b.summary = summarize(b.samples);
  if (kernel_median_s > 0) b.speedup = b.summary.median / kernel_median_s;
  return b;
}

std::string describe(const BaselineMeasurement& b) {
  if (!b.failed.empty()) return "torch " + b.mode + " not timed: " + b.failed;
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.2fx", b.speedup >= 1 ? b.speedup : 1 / b.speedup);
  return "torch " + b.mode + " " + format_seconds(b.summary.median) +
         " median (n=" + std::to_string(b.samples.size()) + ", " + b.runtime + "): the kernel " +
         ratio + (b.speedup >= 1 ? " faster" : " slower");
}

nlohmann::json to_json(const BaselineMeasurement& b) {
  if (!b.failed.empty()) return {{"mode", b.mode}, {"failed", b.failed}};
  return {{"mode", b.mode},
          {"runtime", b.runtime},
          {"median_s", b.summary.median},
          {"q1_s", b.summary.q1},
          {"q3_s", b.summary.q3},
          {"samples", b.samples},
          {"stop", stop_reason_name(b.stop.reason)},
          {"speedup", b.speedup}};
}

}  // namespace kblaster
