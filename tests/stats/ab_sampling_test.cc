#include "stats/ab_sampling.h"

#include <gtest/gtest.h>

#include "synthetic.h"

namespace kblaster {
namespace {

struct Outcome {
  AbState state;
  Comparison comparison;
  std::size_t pairs;
};

// Drives `sampler` like the harness does: one A/B pair at a time, each costing
// `wall_per_pair` seconds of fake wall time, until it says done.
Outcome drive(AbSampler& sampler, std::uint64_t seed, double ratio, double noise,
              double wall_per_pair = 1e-3) {
  synthetic::TimingSource source(seed);
  double elapsed = 0;
  while (!sampler.done(elapsed)) {
    sampler.add_pair(source.timing(1e-3, noise), source.timing(1e-3 * ratio, noise));
    elapsed += wall_per_pair;
  }
  return {sampler.state(elapsed), sampler.current(), sampler.pairs()};
}

TEST(AbSampler, ClearSlowdownIsDecidedAtTheFirstCheckpoint) {
  AbSampler sampler;
  const Outcome run = drive(sampler, 1, 1.10, 0.01);
  EXPECT_EQ(run.state, AbState::decided);
  EXPECT_EQ(run.comparison.verdict, Verdict::slower);
  EXPECT_EQ(run.pairs, 20u);
  EXPECT_STREQ(ab_state_name(run.state), "DECIDED");
}

TEST(AbSampler, SubtleSlowdownTakesMoreBatchesThenIsSlower) {
  AbSampler sampler;
  const Outcome run = drive(sampler, 2, 1.03, 0.08);
  EXPECT_EQ(run.state, AbState::decided);
  EXPECT_EQ(run.comparison.verdict, Verdict::slower);
  EXPECT_GT(run.pairs, 20u);
  EXPECT_EQ(run.pairs % 20, 0u) << "verdicts only at batch checkpoints";
  EXPECT_EQ(run.comparison.n_a, run.pairs);
}

TEST(AbSampler, NoChangeEndsSame) {
  AbSampler sampler;
  const Outcome run = drive(sampler, 3, 1.0, 0.02);
  EXPECT_EQ(run.state, AbState::decided);
  EXPECT_EQ(run.comparison.verdict, Verdict::same);
}

TEST(AbSampler, UnresolvableNoiseRunsToThePairLimit) {
  AbSampler sampler({}, {.max_pairs = 200});
  const Outcome run = drive(sampler, 4, 1.01, 0.4);
  EXPECT_EQ(run.state, AbState::pair_limit);
  EXPECT_EQ(run.pairs, 200u);
  EXPECT_EQ(run.comparison.verdict, Verdict::ambiguous);
}

TEST(AbSampler, TimeLimitCutsABatchAndCurrentCoversEveryPair) {
  AbSampler sampler({}, {.max_seconds = 1.0});
  const Outcome run = drive(sampler, 5, 1.01, 0.4, /*wall_per_pair=*/0.03);
  EXPECT_EQ(run.state, AbState::time_limit);
  EXPECT_EQ(run.pairs, 34u) << "ceil(1.0 / 0.03)";
  EXPECT_EQ(run.comparison.n_a, 34u);
  EXPECT_EQ(run.comparison.verdict, Verdict::ambiguous);
}

TEST(AbSampler, EqualKernelsRarelyEndFasterOrSlowerDespiteRepeatedLooks) {
  int false_calls = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    AbSampler sampler({}, {.max_pairs = 1000});
    false_calls += [&] {
      const Verdict v = drive(sampler, 100 + seed, 1.0, 0.1).comparison.verdict;
      return v == Verdict::faster || v == Verdict::slower ? 1 : 0;
    }();
  }
  EXPECT_LE(false_calls, 2) << "about 2% per run in a 500-run simulation";
}

TEST(AbSampler, PairsToCheckpointFollowsMinPairsThenBatchesThenMaxPairs) {
  AbSampler sampler({}, {.min_pairs = 20, .max_pairs = 50, .batch = 20});
  EXPECT_EQ(sampler.pairs_to_checkpoint(), 20u);
  EXPECT_FALSE(sampler.done(0));
  EXPECT_EQ(sampler.current().verdict, Verdict::ambiguous);
  synthetic::TimingSource source(6);
  const auto add = [&](int n) {
    for (int i = 0; i < n; ++i) sampler.add_pair(source.lognormal(1, 1), source.lognormal(1, 1));
  };
  add(5);
  EXPECT_EQ(sampler.pairs_to_checkpoint(), 15u);
  add(15);
  EXPECT_EQ(sampler.pairs_to_checkpoint(), 20u);
  add(20);
  EXPECT_EQ(sampler.pairs_to_checkpoint(), 10u) << "the last batch is cut at max_pairs";
  add(10);
  EXPECT_EQ(sampler.pairs_to_checkpoint(), 0u);
  EXPECT_TRUE(sampler.done(0));
}

}  // namespace
}  // namespace kblaster
