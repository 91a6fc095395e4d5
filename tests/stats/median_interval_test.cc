#include "stats/median_interval.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stats/quantile.h"
#include "synthetic.h"

namespace kblaster {
namespace {

TEST(MedianInterval, UsesTheOrderStatisticsAroundTheMiddle) {
  std::vector<double> sorted;
  for (int i = 1; i <= 100; ++i) sorted.push_back(i);
  const MedianInterval m = median_interval_of_sorted(sorted);
  EXPECT_EQ(m.low, 40) << "j = floor(50 - 1.96 * 10 / 2) = 40";
  EXPECT_EQ(m.high, 61) << "k = ceil(1 + 50 + 9.8) = 61";
  EXPECT_DOUBLE_EQ(m.median, 50.5);
  EXPECT_DOUBLE_EQ(relative_half_width(m, sorted.size()), 21 / (2 * 50.5));
}

TEST(MedianInterval, SmallSamplesSpanMinToMax) {
  const std::vector<double> sorted{1, 2, 3};
  const MedianInterval m = median_interval_of_sorted(sorted);
  EXPECT_EQ(m.low, 1);
  EXPECT_EQ(m.high, 3);
}

TEST(MedianInterval, HalfWidthIsInfiniteWithoutTwoSamplesOrAPositiveMedian) {
  EXPECT_TRUE(std::isinf(relative_half_width(median_interval_of_sorted({}), 0)));
  const std::vector<double> one{5};
  EXPECT_TRUE(std::isinf(relative_half_width(median_interval_of_sorted(one), 1)));
  const std::vector<double> zeros{0, 0, 0};
  EXPECT_TRUE(std::isinf(relative_half_width(median_interval_of_sorted(zeros), 3)));
}

TEST(MedianInterval, CoversTheTrueMedianAboutNinetyFivePercentOfTheTime) {
  synthetic::TimingSource source(7);
  int covered = 0;
  const int runs = 1000;
  for (int r = 0; r < runs; ++r) {
    const std::vector<double> sorted = sorted_copy(source.timings(101, 1.0, 0.05));
    const MedianInterval m = median_interval_of_sorted(sorted);
    covered += (m.low <= 1.0 && 1.0 <= m.high) ? 1 : 0;
  }
  EXPECT_GE(covered, 930);
  EXPECT_LE(covered, 985) << "the rounding outward makes it a little conservative, not vacuous";
}

}  // namespace
}  // namespace kblaster
