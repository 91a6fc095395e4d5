#include "eval/measure_step.h"

#include <algorithm>
#include <cstdio>

#include "core/launch_plan.h"
#include "core/units.h"
#include "eval/seed_source.h"
#include "stats/quantile.h"
#include "stats/throttle_filter.h"

namespace kblaster {
namespace {

// A sample request should carry ~20 ms of GPU work: long enough that the round
// trip to the harness is noise, short enough that the stopping rule is checked often.
constexpr double kBatchGpuSeconds = 0.02;
constexpr int kWarmupLaunches = 3;
// A median this far under the floor cannot be real (the floor is a lower bound
// computed from a measured, not a datasheet, bandwidth, so allow its noise).
constexpr double kFloorSlack = 0.97;

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", fraction * 100.0);
  return buf;
}

}  // namespace

Result<Measurement> measure(HarnessClient& harness, const KernelSpec& spec, int candidate,
                            const BenchFlags& flags, const Ceilings& ceilings, Clock& clock) {
  auto plan = plan_kernel(spec);
  if (!plan) return plan.error();
  const SizePlan& timed = plan->sizes.front();
  Measurement m;
  m.size = size_label(spec, spec.sizes.front());
  m.min_bytes = timed.min_bytes();
  m.flops = timed.flops;
  KB_TRY(harness.restore_if_lost());  // a candidate may have brought it down last time
  KB_TRY(harness.setup(harness_args(spec, timed)));
  m.seed = flags.seed != 0 ? flags.seed : draw_seed();
  KB_TRY(harness.bench_prepare(m.seed, Against{}));

  auto warmup = harness.sample(std::vector<int>(kWarmupLaunches, candidate));
  if (!warmup) {
    m.rejected = "the candidate failed while timed: " + warmup.error().message;
    return m;
  }
  double estimate = warmup->back().gpu_seconds;

  // Throttled samples are dropped as they arrive, so the samples that decide
  // when to stop are exactly the ones reported.
  StoppingRule rule(flags.stop);
  ThrottleGate gate({flags.throttle_threshold});
  const double start = clock.now_seconds();
  for (;;) {
    const int batch =
        std::clamp(static_cast<int>(kBatchGpuSeconds / std::max(estimate, 1e-7)), 1, 512);
    auto samples = harness.sample(std::vector<int>(batch, candidate));
    if (!samples) {
      // The candidate failed while timed: a finding about it, not about kblaster.
      m.rejected = "the candidate failed while timed: " + samples.error().message;
      return m;
    }
    for (const auto& s : *samples) {
      if (!gate.admit(s.sm_mhz)) continue;
      rule.add(s.gpu_seconds);
      m.samples.push_back(s.gpu_seconds);
      m.sample_sm_mhz.push_back(s.sm_mhz);
    }
    m.stop = rule.decide(clock.now_seconds() - start);
    if (m.stop.reason != StopReason::keep_going) break;
    if (!m.samples.empty()) estimate = median_of(m.samples);
  }
  m.throttled = gate.dropped();
  m.sm_mhz = gate.median_mhz();
  m.summary = summarize(m.samples);

  auto recheck = harness.recheck(candidate, spec.tolerance);
  if (!recheck) return recheck.error();
  m.recheck = *recheck;
  if (!m.recheck.passed)
    m.rejected = std::string(ended_the_harness(m.recheck)
                                 ? "the output of its last timed launch could not be rechecked ("
                                 : "the output of its last timed launch is wrong (") +
                 m.recheck.reason + ": " + m.recheck.message + "; inputs from seed " +
                 std::to_string(m.seed) + ")";
  if (ceilings.dram_bytes_per_s > 0) {
    m.floor_seconds = m.min_bytes / ceilings.dram_bytes_per_s;
    if (m.rejected.empty() && m.summary.median < kFloorSlack * m.floor_seconds)
      m.rejected = "implausible: median " + format_seconds(m.summary.median) +
                   " is below the roofline floor " + format_seconds(m.floor_seconds) +
                   " (the minimum bytes over the measured bandwidth)";
  }
  return m;
}

std::string describe(const Measurement& m, const Ceilings& ceilings) {
  std::string s = format_seconds(m.summary.median) + " median, IQR " + percent(m.summary.rel_iqr) +
                  " (n=" + std::to_string(m.samples.size());
  if (m.throttled) s += ", " + std::to_string(m.throttled) + " throttled";
  s += ")";
  if (m.min_bytes > 0) {
    s += "  " + format_bytes(static_cast<std::int64_t>(m.bytes_per_s())) + "/s";
    if (ceilings.dram_bytes_per_s > 0)
      s += " = " + percent(m.bytes_per_s() / ceilings.dram_bytes_per_s) + " of " +
           format_bytes(static_cast<std::int64_t>(ceilings.dram_bytes_per_s)) + "/s";
  }
  if (m.flops && m.summary.median > 0) {
    const double rate = *m.flops / m.summary.median;
    s += "  " + format_flops(static_cast<std::int64_t>(rate)) + "/s";
    if (ceilings.fp32_flops_per_s > 0)
      s += " = " + percent(rate / ceilings.fp32_flops_per_s) + " of " +
           format_flops(static_cast<std::int64_t>(ceilings.fp32_flops_per_s)) + "/s FP32";
  }
  char clock[48];
  std::snprintf(clock, sizeof clock, "  SM %.0f MHz", m.sm_mhz);
  s += clock;
  s += "  [" + std::string(stop_reason_name(m.stop.reason)) + ", noise " + percent(m.stop.noise) +
       "]";
  return s;
}

nlohmann::json to_json(const Measurement& m, const Ceilings& ceilings) {
  nlohmann::json j = {{"size", m.size},
                      {"seed", m.seed},
                      {"median_s", m.summary.median},
                      {"q1_s", m.summary.q1},
                      {"q3_s", m.summary.q3},
                      {"rel_iqr", m.summary.rel_iqr},
                      {"mean_s", m.summary.mean},
                      {"min_s", m.summary.min},
                      {"max_s", m.summary.max},
                      {"samples", m.samples},
                      {"sample_sm_mhz", m.sample_sm_mhz},
                      {"throttled", m.throttled},
                      {"sm_mhz", m.sm_mhz},
                      {"stop", stop_reason_name(m.stop.reason)},
                      {"noise", m.stop.noise},
                      {"min_bytes", m.min_bytes},
                      {"bytes_per_s", m.bytes_per_s()},
                      {"peak_bytes_per_s", ceilings.dram_bytes_per_s},
                      {"peak_fp32_flops_per_s", ceilings.fp32_flops_per_s},
                      {"floor_s", m.floor_seconds},
                      {"recheck", {{"passed", m.recheck.passed}, {"reason", m.recheck.reason}}},
                      {"trusted", m.rejected.empty()}};
  j["flops"] = m.flops ? nlohmann::json(*m.flops) : nlohmann::json(nullptr);
  j["flops_per_s"] = m.flops && m.summary.median > 0 ? nlohmann::json(*m.flops / m.summary.median)
                                                     : nlohmann::json(nullptr);
  if (!m.rejected.empty()) j["rejected"] = m.rejected;
  return j;
}

}  // namespace kblaster
