#include "eval/measure_step.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/launch_plan.h"
#include "core/units.h"
#include "eval/seed_source.h"
#include "stats/context_choice.h"
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

// A hot sample should carry this much GPU time: hundreds of event ticks.
constexpr double kHotSampleSeconds = 100e-6;
// Calls queued behind the hold at once: a launcher of many kernels times this many must stay
// well within the device's queue of pending launches (about a thousand), or the launches block
// the host while the stream is held. The harness takes up to 256.
constexpr int kMaxHotCalls = 64;

// Samples taken until a stopping rule ends them, throttled ones dropped as they arrive.
struct SampleRun {
  std::vector<double> samples, sm_mhz;
  std::size_t throttled = 0;
  double median_mhz = 0;
  StopDecision stop;
};

// Samples `candidate` with `calls` launcher calls each, starting from a time `estimate` per
// sample, until flags.stop ends them. An Error is the candidate's failure while timed.
Result<SampleRun> sample_until_stopped(HarnessClient& harness, int candidate, int calls,
                                       double estimate, const BenchFlags& flags, Clock& clock,
                                       bool unheld = false) {
  // Throttled samples are dropped as they arrive, so the samples that decide
  // when to stop are exactly the ones reported.
  StoppingRule rule(flags.stop);
  ThrottleGate gate({flags.throttle_threshold});
  SampleRun run;
  const double start = clock.now_seconds();
  for (;;) {
    const int batch =
        std::clamp(static_cast<int>(kBatchGpuSeconds / std::max(estimate * calls, 1e-7)), 1, 512);
    auto samples = harness.sample(std::vector<int>(batch, candidate), calls, unheld);
    if (!samples) return samples.error();
    for (const auto& s : *samples) {
      if (!gate.admit(s.sm_mhz)) continue;
      rule.add(s.gpu_seconds);
      run.samples.push_back(s.gpu_seconds);
      run.sm_mhz.push_back(s.sm_mhz);
    }
    run.stop = rule.decide(clock.now_seconds() - start);
    if (run.stop.reason != StopReason::keep_going) break;
    if (!run.samples.empty()) estimate = median_of(run.samples);
  }
  run.throttled = gate.dropped();
  run.median_mhz = gate.median_mhz();
  return run;
}

// The context that stands for the kernel by its `which` summary: the median of the fast mode.
const ContextTiming& typical(const std::vector<ContextTiming>& runs,
                             Summary ContextTiming::*which) {
  std::vector<double> medians;
  for (const ContextTiming& c : runs) medians.push_back((c.*which).median);
  return runs.at(typical_fast_context(medians));
}

bool has_inout(const KernelSpec& spec) {
  return std::any_of(spec.args.begin(), spec.args.end(),
                     [](const ArgSpec& a) { return a.role == ArgRole::inout; });
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", fraction * 100.0);
  return buf;
}

}  // namespace

int hot_batch_calls(double seconds) {
  return std::clamp(static_cast<int>(std::ceil(kHotSampleSeconds / std::max(seconds, 1e-9))), 2,
                    kMaxHotCalls);
}

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
  if (!warmup && launcher_waited_for_the_gpu(warmup.error())) {
    // A launcher that synchronizes (a workspace's cudaMalloc/cudaFree) is timed unheld, in the
    // fresh harness the failed sample left: wall time of each call and a device synchronize.
    m.unheld = true;
    KB_TRY(harness.restore_if_lost());
    KB_TRY(harness.bench_prepare(m.seed, Against{}));
    warmup = harness.sample(std::vector<int>(kWarmupLaunches, candidate), 1, true);
  }
  if (!warmup) {
    m.rejected = "the candidate failed while timed: " + warmup.error().message;
    return m;
  }
  std::vector<double> warm;
  for (const auto& s : *warmup) warm.push_back(s.gpu_seconds);
  const double estimate = median_of(warm);
  const bool launch_bound = !m.unheld && estimate > 0 && estimate < kHotBelowSeconds;
  const bool mid = !m.unheld && !launch_bound && estimate < kMidContextsBelowSeconds;
  const int contexts = launch_bound ? kTimingContexts : mid ? std::max(flags.mid_contexts, 1) : 1;
  const int calls = hot_batch_calls(estimate);
  BenchFlags share = flags;  // the stopping rule's time, split between the contexts
  share.stop.max_seconds /= contexts;
  share.stop.min_gpu_seconds /= contexts;

  std::vector<ContextTiming> runs;
  for (int c = 0; c < contexts; ++c) {
    if (c > 0) {
      // The harness about to end saw its context's launches: an out-of-bounds write there is
      // asked for now, as the recheck at the end sees only the last context's.
      auto damage = harness.guard_damage(candidate);
      if (!damage && harness.holds_load()) return damage.error();
      if (!damage || *damage) {
        // The damage is the recheck's verdict; a harness the candidate took down after its
        // samples answered is one that could not be rechecked.
        m.recheck = damage ? **damage
                           : CheckVerdict{false,
                                          verdict_reason_name(VerdictReason::not_rechecked),
                                          "the harness ended after CUDA context " +
                                              std::to_string(c) + ": " + damage.error().message,
                                          {}};
        m.rejected = "while timed in CUDA context " + std::to_string(c) + " of " +
                     std::to_string(contexts) + ": " + m.recheck.reason + ": " + m.recheck.message;
        return m;
      }
      // A fresh harness process is a fresh CUDA context: the same objects, size and inputs.
      KB_TRY(harness.fresh_context());
      // Only the last context's outputs are rechecked: the others skip the reference.
      KB_TRY(harness.bench_prepare(m.seed, Against{}, /*expected=*/c + 1 == contexts));
      auto again = harness.sample(std::vector<int>(kWarmupLaunches, candidate));
      if (!again) {
        m.rejected = "the candidate failed while timed in CUDA context " + std::to_string(c + 1) +
                     " of " + std::to_string(contexts) + ": " + again.error().message;
        return m;
      }
    }
    auto cold = sample_until_stopped(harness, candidate, 1, estimate, share, clock, m.unheld);
    if (!cold) {
      // The candidate failed while timed: a finding about it, not about kblaster.
      m.rejected = "the candidate failed while timed: " + cold.error().message;
      return m;
    }
    ContextTiming t{.samples = std::move(cold->samples),
                    .sample_sm_mhz = std::move(cold->sm_mhz),
                    .stop = cold->stop,
                    .throttled = cold->throttled,
                    .sm_mhz = cold->median_mhz};
    t.summary = summarize(t.samples);
    if (launch_bound) {
      auto hot = sample_until_stopped(harness, candidate, calls, estimate, share, clock);
      if (!hot) {
        m.rejected = "the candidate failed while timed hot: " + hot.error().message;
        return m;
      }
      t.hot_samples = std::move(hot->samples);
      t.hot_sample_sm_mhz = std::move(hot->sm_mhz);
      t.hot_stop = hot->stop;
      t.hot_throttled = hot->throttled;
      t.hot_summary = summarize(t.hot_samples);
    }
    runs.push_back(std::move(t));
  }

  const ContextTiming& cold = typical(runs, &ContextTiming::summary);
  m.samples = cold.samples;
  m.sample_sm_mhz = cold.sample_sm_mhz;
  m.stop = cold.stop;
  m.throttled = cold.throttled;
  m.sm_mhz = cold.sm_mhz;
  m.summary = cold.summary;
  if (launch_bound) {
    const ContextTiming& hot = typical(runs, &ContextTiming::hot_summary);
    m.hot = HotMeasurement{.calls = calls,
                           .samples = hot.hot_samples,
                           .sample_sm_mhz = hot.hot_sample_sm_mhz,
                           .throttled = hot.hot_throttled,
                           .summary = hot.hot_summary,
                           .stop = hot.hot_stop,
                           .inout_carried_over = has_inout(spec)};
  }
  if (contexts > 1) m.contexts = std::move(runs);

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
  if (m.sm_mhz > 0) {  // not read for unheld samples
    char clock[48];
    std::snprintf(clock, sizeof clock, "  SM %.0f MHz", m.sm_mhz);
    s += clock;
  }
  s += "  [" + std::string(stop_reason_name(m.stop.reason)) + ", noise " + percent(m.stop.noise) +
       "]";
  if (m.unheld)
    s += "; timed unheld (the launcher waits for the GPU): wall time of each call and a device "
         "synchronize (a workspace taken with cudaMallocAsync/cudaFreeAsync on the launcher's "
         "stream would not wait)";
  if (!m.contexts.empty()) {
    const double slowest = std::max_element(m.contexts.begin(), m.contexts.end(),
                                            [](const ContextTiming& a, const ContextTiming& b) {
                                              return a.summary.median < b.summary.median;
                                            })
                               ->summary.median;
    s += std::string(m.hot ? "; the fast mode of " : "; the typical of ") +
         std::to_string(m.contexts.size()) + " CUDA contexts (slowest " + format_seconds(slowest) +
         ")";
  }
  if (m.hot)
    s += "; hot: " + format_seconds(m.hot->summary.median) + " median, IQR " +
         percent(m.hot->summary.rel_iqr) + " (n=" + std::to_string(m.hot->samples.size()) + " of " +
         std::to_string(m.hot->calls) + " calls back to back, L2 warm)";
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
  if (m.unheld)
    j["timing_method"] =
        "unheld: the launcher waits for the GPU (a workspace's cudaMalloc/cudaFree, say), so its "
        "stream cannot be held; each sample is the wall time of one launcher call and a device "
        "synchronize after an L2 flush, the launcher's host time included";
  if (m.hot)
    j["hot"] = {
        {"method",
         "nvbench's batch: " + std::to_string(m.hot->calls) +
             " launcher calls back to back per sample, L2 warm, time per call" +
             (m.hot->inout_carried_over ? ", inout arguments carried over between the calls" : "")},
        {"calls", m.hot->calls},
        {"median_s", m.hot->summary.median},
        {"q1_s", m.hot->summary.q1},
        {"q3_s", m.hot->summary.q3},
        {"rel_iqr", m.hot->summary.rel_iqr},
        {"samples", m.hot->samples},
        {"sample_sm_mhz", m.hot->sample_sm_mhz},
        {"throttled", m.hot->throttled},
        {"stop", stop_reason_name(m.hot->stop.reason)},
        {"noise", m.hot->stop.noise}};
  if (!m.contexts.empty()) {
    nlohmann::json runs = nlohmann::json::array();
    for (const ContextTiming& c : m.contexts) {
      nlohmann::json run = {{"median_s", c.summary.median},
                            {"samples", c.samples},
                            {"sample_sm_mhz", c.sample_sm_mhz},
                            {"throttled", c.throttled},
                            {"stop", stop_reason_name(c.stop.reason)}};
      if (m.hot) {
        run["hot_median_s"] = c.hot_summary.median;
        run["hot_samples"] = c.hot_samples;
        run["hot_sample_sm_mhz"] = c.hot_sample_sm_mhz;
        run["hot_throttled"] = c.hot_throttled;
        run["hot_stop"] = stop_reason_name(c.hot_stop.reason);
      }
      runs.push_back(std::move(run));
    }
    const std::string n = std::to_string(m.contexts.size());
    j["contexts"] = {
        {"method",
         m.hot ? "launch-bound: timed in " + n +
                     " fresh CUDA contexts (harness processes), each with 1/" + n +
                     " of the stopping rule's time; the cold and hot results are each the "
                     "context at the median of the fast mode (contexts within 2% of the "
                     "fastest), as a context's launch-bound time falls in one of two modes "
                     "about 5% apart"
               : "timed in " + n + " fresh CUDA contexts (harness processes), each with 1/" + n +
                     " of the stopping rule's time; the result is the context at the median "
                     "of those within 2% of the fastest, as a 20-us to 1-ms kernel's time "
                     "varies more between processes than within one"},
        {"runs", runs}};
  }
  return j;
}

}  // namespace kblaster
