#include "stats/bootstrap.h"

#include <gtest/gtest.h>

#include <vector>

#include "synthetic.h"

namespace kblaster {
namespace {

TEST(Bootstrap, ConstantSamplesGiveTheExactRatio) {
  const std::vector<double> a(15, 2.0), b(20, 3.0);
  const RatioInterval ci = bootstrap_median_ratio(a, b);
  EXPECT_DOUBLE_EQ(ci.low, 1.5);
  EXPECT_DOUBLE_EQ(ci.high, 1.5);
}

TEST(Bootstrap, DegenerateInputsGiveZeros) {
  const std::vector<double> a{1, 2, 3}, zeros{0, 0, 0}, empty;
  EXPECT_EQ(bootstrap_median_ratio(a, empty).high, 0);
  EXPECT_EQ(bootstrap_median_ratio(zeros, a).high, 0);
  EXPECT_EQ(bootstrap_median_ratio(a, a, {.resamples = 0}).high, 0);
}

TEST(Bootstrap, SameSeedSameIntervalOtherSeedOtherInterval) {
  synthetic::TimingSource source(21);
  const auto a = source.timings(60, 1.0, 0.05), b = source.timings(60, 1.1, 0.05);
  const RatioInterval x = bootstrap_median_ratio(a, b, {.seed = 9});
  const RatioInterval y = bootstrap_median_ratio(a, b, {.seed = 9});
  const RatioInterval z = bootstrap_median_ratio(a, b, {.seed = 10});
  EXPECT_EQ(x.low, y.low);
  EXPECT_EQ(x.high, y.high);
  EXPECT_NE(x.low, z.low);
}

TEST(Bootstrap, IntervalNarrowsWithMoreSamples) {
  synthetic::TimingSource source(22);
  const auto small_a = source.timings(30, 1.0, 0.05), small_b = source.timings(30, 1.1, 0.05);
  const auto big_a = source.timings(3000, 1.0, 0.05), big_b = source.timings(3000, 1.1, 0.05);
  const RatioInterval small = bootstrap_median_ratio(small_a, small_b);
  const RatioInterval big = bootstrap_median_ratio(big_a, big_b);
  EXPECT_LT(big.high - big.low, (small.high - small.low) / 5) << "about 1/sqrt(100)";
  EXPECT_LT(big.low, 1.1);
  EXPECT_GT(big.high, 1.1);
}

TEST(Bootstrap, CoversTheTrueRatioAtAboutItsLevel) {
  synthetic::TimingSource source(23);
  int covered = 0;
  for (int run = 0; run < 200; ++run) {
    const auto a = source.timings(101, 1.0, 0.03), b = source.timings(101, 1.2, 0.03);
    const RatioInterval ci = bootstrap_median_ratio(a, b, {.resamples = 1000, .level = 0.9});
    covered += (ci.low <= 1.2 && 1.2 <= ci.high) ? 1 : 0;
  }
  EXPECT_GE(covered, 165);
  EXPECT_LE(covered, 195);
}

}  // namespace
}  // namespace kblaster
