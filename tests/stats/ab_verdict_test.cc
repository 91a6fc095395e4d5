#include "stats/ab_verdict.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "synthetic.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// n interleaved pairs: A around 1 ms, B around ratio ms, both with relative noise.
Comparison compare_synthetic(std::uint64_t seed, std::size_t n, double ratio, double noise,
                             const VerdictCriteria& criteria = {}) {
  synthetic::TimingSource source(seed);
  std::vector<double> a, b;
  for (std::size_t i = 0; i < n; ++i) {
    a.push_back(source.timing(1e-3, noise));
    b.push_back(source.timing(1e-3 * ratio, noise));
  }
  return compare(a, b, criteria);
}

TEST(AbVerdict, NamesAreUpperCase) {
  EXPECT_STREQ(verdict_name(Verdict::faster), "FASTER");
  EXPECT_STREQ(verdict_name(Verdict::slower), "SLOWER");
  EXPECT_STREQ(verdict_name(Verdict::same), "SAME");
  EXPECT_STREQ(verdict_name(Verdict::ambiguous), "AMBIGUOUS");
}

TEST(AbVerdict, IdenticalDistributionsAreSameInAtLeast19Of20Seeds) {
  int same = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    same += compare_synthetic(seed, 100, 1.0, 0.01).verdict == Verdict::same ? 1 : 0;
  }
  EXPECT_GE(same, 19);
}

TEST(AbVerdict, TenPercentSlowerWithOnePercentNoiseIsSlower) {
  const Comparison c = compare_synthetic(31, 50, 1.10, 0.01);
  EXPECT_EQ(c.verdict, Verdict::slower);
  EXPECT_NEAR(c.ratio, 1.10, 0.01);
  EXPECT_GT(c.ci_low, 1.0);
  EXPECT_LT(c.mann_whitney_p, 1e-6);
  EXPECT_THAT(c.reason, StartsWith("SLOWER: B/A 1.0"));
  EXPECT_THAT(c.reason, HasSubstr("99% CI"));
  EXPECT_FALSE(needs_more_samples(c));
}

TEST(AbVerdict, TenPercentFasterIsFaster) {
  const Comparison c = compare_synthetic(32, 50, 0.90, 0.01);
  EXPECT_EQ(c.verdict, Verdict::faster);
  EXPECT_LT(c.ci_high, 1.0);
}

TEST(AbVerdict, ThreePercentSlowerIsSlowerOnceThereAreEnoughSamples) {
  EXPECT_EQ(compare_synthetic(33, 20, 1.03, 0.05).verdict, Verdict::ambiguous);
  EXPECT_EQ(compare_synthetic(33, 1000, 1.03, 0.05).verdict, Verdict::slower);
}

TEST(AbVerdict, OnePercentSlowerIsSameWhenTheMinimumEffectIsTwoPercent) {
  const Comparison c = compare_synthetic(34, 300, 1.01, 0.01);
  EXPECT_EQ(c.verdict, Verdict::same);
  EXPECT_LT(c.mann_whitney_p, 0.01) << "significant, yet below the minimum effect";
  EXPECT_GE(c.ci_low, 0.98);
  EXPECT_LE(c.ci_high, 1.02);
}

TEST(AbVerdict, SignificantChangeBelowMinEffectWithAWideIntervalIsAmbiguous) {
  // A tight around 1.0; B spread evenly over 0.97..1.06 (median 1.015): B is
  // clearly slower, but its median is too uncertain to rule out a change >= 2%.
  std::vector<double> a, b;
  for (int i = 0; i < 200; ++i) {
    a.push_back(0.999 + 0.002 * i / 199);
    b.push_back(0.97 + 0.09 * i / 199);
  }
  const Comparison c = compare(a, b);
  EXPECT_EQ(c.verdict, Verdict::ambiguous);
  EXPECT_LT(c.mann_whitney_p, 1e-6);
  EXPECT_GT(c.ci_low, 1.0);
  EXPECT_GT(c.ci_high, 1.02);
  EXPECT_THAT(c.reason, HasSubstr("significant change of +1.5%, under the 2% minimum"));
  EXPECT_TRUE(needs_more_samples(c));
}

TEST(AbVerdict, VeryNoisySmallSamplesAreAmbiguous) {
  int ambiguous = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    synthetic::TimingSource source(seed);
    std::vector<double> a, b;
    for (int i = 0; i < 15; ++i) {
      a.push_back(source.lognormal(1e-3, 0.3));
      b.push_back(source.lognormal(1.03e-3, 0.3));
    }
    ambiguous += compare(a, b).verdict == Verdict::ambiguous ? 1 : 0;
  }
  EXPECT_GE(ambiguous, 9);
}

TEST(AbVerdict, TooFewSamplesAreAmbiguousWhateverTheValues) {
  const std::vector<double> a(5, 1.0), b(5, 2.0);
  const Comparison c = compare(a, b);
  EXPECT_EQ(c.verdict, Verdict::ambiguous);
  EXPECT_THAT(c.reason, HasSubstr("too few samples"));
}

// 10% of samples hit by a 5x stall (preemption, a context switch), on both sides.
std::vector<double> with_stalls(synthetic::TimingSource& source, std::size_t n, double median) {
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = source.timing(median, 0.005);
    out.push_back(source.uniform() < 0.1 ? 5 * t : t);
  }
  return out;
}

TEST(AbVerdict, OutliersNeitherHideASlowdownNorInventOne) {
  synthetic::TimingSource source(41);
  const auto a = with_stalls(source, 200, 1e-3), slow = with_stalls(source, 200, 1.05e-3);
  const auto same = with_stalls(source, 200, 1e-3);
  const Comparison slower = compare(a, slow);
  EXPECT_EQ(slower.verdict, Verdict::slower);
  EXPECT_NEAR(slower.ratio, 1.05, 0.005);
  EXPECT_EQ(compare(a, same).verdict, Verdict::same);
}

// A two-mode run: with probability `p_slow` a sample lands in a mode 30% slower.
std::vector<double> bimodal(synthetic::TimingSource& source, std::size_t n, double median,
                            double p_slow) {
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(source.timing(median, 0.005) * (source.uniform() < p_slow ? 1.3 : 1.0));
  }
  return out;
}

TEST(AbVerdict, BimodalWithADominantModeStillShowsTheShift) {
  synthetic::TimingSource source(42);
  const auto a = bimodal(source, 200, 1e-3, 0.2), b = bimodal(source, 200, 1.1e-3, 0.2);
  EXPECT_EQ(compare(a, b).verdict, Verdict::slower);
}

TEST(AbVerdict, EvenlyBimodalIdenticalRunsAreAlmostNeverCalledADifference) {
  int false_calls = 0, same = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    synthetic::TimingSource source(seed);
    const auto a = bimodal(source, 100, 1e-3, 0.5), b = bimodal(source, 100, 1e-3, 0.5);
    const Verdict v = compare(a, b).verdict;
    false_calls += (v == Verdict::faster || v == Verdict::slower) ? 1 : 0;
    same += v == Verdict::same ? 1 : 0;
  }
  EXPECT_LE(false_calls, 1) << "the median jumps between modes; alpha bounds false calls";
  EXPECT_LT(same, 20) << "and an unstable median should rarely look equivalent";
}

}  // namespace
}  // namespace kblaster
