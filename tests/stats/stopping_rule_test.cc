#include "stats/stopping_rule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stats/median_interval.h"
#include "stats/quantile.h"
#include "synthetic.h"

namespace kblaster {
namespace {

// Feeds samples from `next` until the rule stops; each sample costs `wall_per_sample`.
template <class Next>
StopDecision run_until_stop(StoppingRule& rule, Next next, double wall_per_sample) {
  double elapsed = 0;
  for (int i = 0; i < 1000000; ++i) {
    rule.add(next());
    elapsed += wall_per_sample;
    const StopDecision d = rule.decide(elapsed);
    if (d.reason != StopReason::keep_going) return d;
  }
  ADD_FAILURE() << "never stopped";
  return {};
}

TEST(StoppingRule, ConvergesOnLowNoiseDataOnceMinGpuTimeIsMet) {
  synthetic::TimingSource source(1);
  StoppingRule rule;
  const StopDecision d = run_until_stop(
      rule, [&] { return source.timing(1e-3, 0.002); }, 2e-3);
  EXPECT_EQ(d.reason, StopReason::converged);
  EXPECT_LE(d.noise, 0.005);
  EXPECT_GE(d.gpu_seconds, 0.5);
  EXPECT_LT(d.gpu_seconds, 0.5 + 2e-3) << "stops at the first sample past 0.5 s";
}

TEST(StoppingRule, NoisyDataKeepsGoingUntilTheTimeLimit) {
  synthetic::TimingSource source(2);
  StoppingRule rule;
  const StopDecision d = run_until_stop(
      rule, [&] { return source.lognormal(1e-3, 0.5); }, 1.0 / 64);
  EXPECT_EQ(d.reason, StopReason::time_limit);
  EXPECT_GT(d.noise, 0.005);
  EXPECT_EQ(d.samples, 960u) << "15 s at 1/64 s of wall time per sample";
  EXPECT_STREQ(stop_reason_name(d.reason), "TIME_LIMIT");
}

TEST(StoppingRule, RespectsMinSamples) {
  StoppingRule rule;  // 1 s samples: GPU time and noise (0) are met from the start
  for (int i = 1; i <= 9; ++i) {
    rule.add(1.0);
    EXPECT_EQ(rule.decide(0).reason, StopReason::keep_going) << i << " samples";
  }
  rule.add(1.0);
  EXPECT_EQ(rule.decide(0).reason, StopReason::converged);
}

TEST(StoppingRule, RespectsMinGpuTime) {
  StoppingRule rule({.min_samples = 2});
  for (int i = 1; i <= 31; ++i) {
    rule.add(1.0 / 64);  // exact in binary, so 32 samples sum to exactly 0.5 s
    EXPECT_EQ(rule.decide(0).reason, StopReason::keep_going) << i << " samples";
  }
  rule.add(1.0 / 64);
  EXPECT_EQ(rule.decide(0).reason, StopReason::converged);
}

TEST(StoppingRule, ConvergenceWinsOverAnElapsedTimeLimit) {
  StoppingRule rule({.min_samples = 2, .min_gpu_seconds = 0});
  rule.add(1.0);
  EXPECT_EQ(rule.decide(20).reason, StopReason::time_limit) << "one sample: infinite noise";
  EXPECT_TRUE(std::isinf(rule.decide(20).noise));
  rule.add(1.0);
  EXPECT_EQ(rule.decide(20).reason, StopReason::converged);
}

TEST(StoppingRule, NoiseTracksTheMedianIntervalOfAllSamples) {
  synthetic::TimingSource source(3);
  StoppingRule rule;
  std::vector<double> all;
  for (int i = 0; i < 20000; ++i) {
    all.push_back(source.lognormal(1e-3, 0.2));
    rule.add(all.back());
  }
  const std::vector<double> sorted = sorted_copy(all);
  const double exact = relative_half_width(median_interval_of_sorted(sorted), sorted.size());
  EXPECT_NEAR(rule.decide(0).noise, exact, exact * 0.02) << "refreshed within 1/128 of n";
  EXPECT_EQ(rule.decide(0).samples, 20000u);
}

}  // namespace
}  // namespace kblaster
