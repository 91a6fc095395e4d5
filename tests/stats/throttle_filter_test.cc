#include "stats/throttle_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include <cmath>
#include <limits>
#include <vector>

#include "stats/summary.h"
#include "synthetic.h"

namespace kblaster {
namespace {

using Indices = std::vector<std::size_t>;

TEST(ThrottleFilter, DropsSamplesBelowThresholdTimesMedianClock) {
  const std::vector<double> clocks{1980, 1980, 1975, 1800, 1980, 1700, 1990};
  const ThrottleSelection s = select_unthrottled(clocks);
  EXPECT_DOUBLE_EQ(s.median_mhz, 1980);
  EXPECT_DOUBLE_EQ(s.cutoff_mhz, 0.95 * 1980);
  EXPECT_EQ(s.kept, (Indices{0, 1, 2, 4, 6}));
  EXPECT_EQ(s.dropped, 2u);
}

TEST(ThrottleFilter, KeepsASampleExactlyAtTheCutoff) {
  const std::vector<double> clocks{1000, 1000, 500, 1000, 499};
  const ThrottleSelection s = select_unthrottled(clocks, {.threshold = 0.5});
  EXPECT_EQ(s.kept, (Indices{0, 1, 2, 3}));
}

TEST(ThrottleFilter, UnknownClocksAreKeptAndLeftOutOfTheMedian) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> clocks{0, nan, 2000, 2000, 1000, -1};
  const ThrottleSelection s = select_unthrottled(clocks);
  EXPECT_DOUBLE_EQ(s.median_mhz, 2000);
  EXPECT_EQ(s.kept, (Indices{0, 1, 2, 3, 5}));
}

TEST(ThrottleFilter, WithNoKnownClockEverySampleIsKept) {
  const std::vector<double> clocks{0, 0, 0};
  const ThrottleSelection s = select_unthrottled(clocks);
  EXPECT_EQ(s.kept, (Indices{0, 1, 2}));
  EXPECT_EQ(s.median_mhz, 0);
  EXPECT_TRUE(select_unthrottled({}).kept.empty());
}

TEST(ThrottleFilter, RemovesTheBiasOfThrottledSamplesFromTheMedian) {
  synthetic::TimingSource source(5);
  std::vector<double> clocks, times;
  for (int i = 0; i < 1000; ++i) {
    const bool throttled = i >= 550;  // a run that heats up: the last 45% throttle
    const double clock = throttled ? 1400 : 1980;
    clocks.push_back(clock + 5 * source.normal());
    times.push_back(source.timing(1e-3, 0.003) * 1980 / clock);
  }
  const ThrottleSelection s = select_unthrottled(clocks);
  EXPECT_EQ(s.dropped, 450u);
  const std::vector<double> kept = kept_samples(times, s);
  ASSERT_EQ(kept.size(), 550u);
  EXPECT_NEAR(summarize(kept).mean, 1e-3, 1e-3 * 0.002);
  EXPECT_GT(summarize(times).mean, 1e-3 * 1.15) << "unfiltered, throttling biases the run";
}

TEST(ThrottleGate, AdmitsAtTheClockAndDropsSamplesUnderTheRunningMedian) {
  ThrottleGate gate;
  EXPECT_TRUE(gate.admit(1980));
  EXPECT_TRUE(gate.admit(1980));
  EXPECT_TRUE(gate.admit(1965));  // within 5 % of the median
  EXPECT_FALSE(gate.admit(1400));  // throttled
  EXPECT_TRUE(gate.admit(0.0));    // unknown: kept, not counted in the median
  EXPECT_TRUE(gate.admit(1980));
  EXPECT_EQ(gate.dropped(), 1u);
  EXPECT_DOUBLE_EQ(gate.median_mhz(), 1980.0);
}

TEST(ThrottleGate, MedianFollowsManyClocksExactly) {
  ThrottleGate gate({0.0});  // admit everything known; check only the running median
  std::vector<double> seen;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> clock(1000, 2000);
  for (int i = 0; i < 501; ++i) {
    const double c = clock(rng);
    gate.admit(c);
    seen.push_back(c);
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_DOUBLE_EQ(gate.median_mhz(), seen[250]);
}

}  // namespace
}  // namespace kblaster
