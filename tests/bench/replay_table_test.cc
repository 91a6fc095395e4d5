// kblaster-replay's pair comparison and sign test, which must agree with
// bench/ablation_table.py (tested on the same cases in bench/tests/test_ablation_table.py).
#include "replay_table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace kblaster {
namespace {

// Best-so-far log speedups from speedups.
std::vector<double> logs(const std::vector<double>& speedups) {
  std::vector<double> out;
  for (double s : speedups) out.push_back(std::log(s));
  return out;
}

std::string p3(double p) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.3f", p);
  return buf;
}

TEST(ReplayTable, TheTargetIs95PercentOfThePairsBestGain) {
  // Best 1.20x, target 1 + 0.95 * 0.20 = 1.19: 1.195x reaches it, 1.18x does not.
  const PairComparison p = compare_pair(logs({1.0, 1.195}), logs({1.18, 1.18, 1.20}));
  EXPECT_TRUE(p.compared);
  EXPECT_TRUE(p.cold_reached);
  EXPECT_EQ(p.cold_evals, 2);
  EXPECT_TRUE(p.warm_reached);
  EXPECT_EQ(p.warm_evals, 3);
  EXPECT_TRUE(p.cold_wins);
  EXPECT_FALSE(p.warm_wins);
}

TEST(ReplayTable, ReachingTheTargetAloneWinsAndEqualCountsAreEven) {
  const PairComparison alone = compare_pair(logs({1.0, 1.0, 1.0, 1.3}), logs({1.1}));
  EXPECT_TRUE(alone.cold_wins);
  EXPECT_FALSE(alone.warm_reached);
  EXPECT_EQ(alone.warm_evals, 2);  // not reached: evaluations + 1
  const PairComparison even = compare_pair(logs({1.0, 1.3}), logs({1.1, 1.3}));
  EXPECT_FALSE(even.cold_wins);
  EXPECT_FALSE(even.warm_wins);
  EXPECT_FALSE(compare_pair(logs({1.0}), logs({1.0, 1.0})).compared) << "no gain: not compared";
}

TEST(ReplayTable, SignTestMatchesTheTablesKnownSplits) {
  EXPECT_EQ(p3(sign_test(15, 5)), "0.041");
  EXPECT_EQ(p3(sign_test(12, 8)), "0.503");
  EXPECT_EQ(p3(sign_test(5, 0)), "0.062");
  EXPECT_EQ(sign_test(0, 0), 1.0);
  EXPECT_EQ(sign_test(4, 4), 1.0);
}

}  // namespace
}  // namespace kblaster
