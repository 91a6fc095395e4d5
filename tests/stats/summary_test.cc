#include "stats/summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stats/quantile.h"
#include "synthetic.h"

namespace kblaster {
namespace {

TEST(Quantile, InterpolatesLinearlyBetweenOrderStatistics) {
  const std::vector<double> sorted{10, 20, 30, 40, 50};
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 0.0), 10);
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 0.1), 14) << "h = 4 * 0.1 = 0.4";
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 0.5), 30);
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 0.9), 46);
  EXPECT_DOUBLE_EQ(quantile_of_sorted(sorted, 1.0), 50);
  EXPECT_DOUBLE_EQ(quantile_of_sorted({}, 0.5), 0);
}

TEST(Quantile, MedianOfOddAndEvenCountsInAnyOrder) {
  EXPECT_DOUBLE_EQ(median_of(std::vector<double>{3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median_of(std::vector<double>{4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median_of(std::vector<double>{7}), 7);
  EXPECT_DOUBLE_EQ(median_of({}), 0);
}

TEST(Summary, EmptyInputIsAllZeros) {
  const Summary s = summarize({});
  EXPECT_EQ(s.n, 0u);
  EXPECT_EQ(s.median, 0);
  EXPECT_EQ(s.iqr, 0);
  EXPECT_EQ(s.rel_stdev, 0);
  EXPECT_EQ(s.max, 0);
}

TEST(Summary, SingleSampleHasNoSpread) {
  const Summary s = summarize(std::vector<double>{2e-3});
  EXPECT_EQ(s.n, 1u);
  EXPECT_EQ(s.median, 2e-3);
  EXPECT_EQ(s.q1, 2e-3);
  EXPECT_EQ(s.q3, 2e-3);
  EXPECT_EQ(s.stdev, 0);
  EXPECT_EQ(s.rel_iqr, 0);
}

TEST(Summary, HandComputedSmallCaseInAnyOrder) {
  const Summary s = summarize(std::vector<double>{4, 1, 3, 2});
  EXPECT_EQ(s.n, 4u);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.q1, 1.75);
  EXPECT_DOUBLE_EQ(s.q3, 3.25);
  EXPECT_DOUBLE_EQ(s.iqr, 1.5);
  EXPECT_DOUBLE_EQ(s.rel_iqr, 0.6);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.stdev, std::sqrt(5.0 / 3.0)) << "sample stdev, n-1 denominator";
  EXPECT_DOUBLE_EQ(s.rel_stdev, std::sqrt(5.0 / 3.0) / 2.5);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 4);
}

TEST(Summary, LargeNormalSampleMatchesItsParameters) {
  synthetic::TimingSource source(42);
  const Summary s = summarize(source.timings(100000, 1e-3, 0.01));
  EXPECT_NEAR(s.median, 1e-3, 1e-3 * 2e-4);
  EXPECT_NEAR(s.mean, 1e-3, 1e-3 * 2e-4);
  EXPECT_NEAR(s.rel_stdev, 0.01, 0.01 * 0.02);
  EXPECT_NEAR(s.rel_iqr, 1.349 * 0.01, 1.349 * 0.01 * 0.03) << "IQR of a normal is 1.349 sigma";
  EXPECT_LT(s.min, s.q1);
  EXPECT_LT(s.q3, s.max);
}

}  // namespace
}  // namespace kblaster
