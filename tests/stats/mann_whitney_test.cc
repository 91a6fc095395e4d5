#include "stats/mann_whitney.h"

#include <gtest/gtest.h>

#include <vector>

#include "synthetic.h"

namespace kblaster {
namespace {

TEST(MannWhitney, HandComputedCaseWithATie) {
  // Ranks of 1 2 3 | 3 4 5 6: 1, 2, 3.5 | 3.5, 5, 6, 7, so R_a = 6.5 and
  // U_a = 6.5 - 3*4/2 = 0.5; mean 6; variance 3*4/12 * (8 - (2^3-2)/(7*6)) = 55/7;
  // z = (|0.5 - 6| - 0.5) / sqrt(55/7); p = erfc(z / sqrt 2) (R: wilcox.test, exact=FALSE).
  const std::vector<double> a{1, 2, 3}, b{3, 4, 5, 6};
  const MannWhitney mw = mann_whitney(a, b);
  EXPECT_DOUBLE_EQ(mw.u_a, 0.5);
  EXPECT_NEAR(mw.z, -1.7837651700316894, 1e-12);
  EXPECT_NEAR(mw.p, 0.07446183141740552, 1e-12);
}

TEST(MannWhitney, HandComputedCaseWithoutTies) {
  // U_a = 0, variance 5*5*11/12; R's wilcox.test(1:5, 6:10, exact=FALSE) gives p = 0.01219.
  const std::vector<double> a{1, 2, 3, 4, 5}, b{10, 9, 8, 7, 6};
  const MannWhitney mw = mann_whitney(a, b);
  EXPECT_DOUBLE_EQ(mw.u_a, 0);
  EXPECT_NEAR(mw.p, 0.012185780355344818, 1e-12);
}

TEST(MannWhitney, SwappingTheSamplesMirrorsU) {
  synthetic::TimingSource source(11);
  const std::vector<double> a = source.timings(30, 1.0, 0.1), b = source.timings(40, 1.05, 0.1);
  const MannWhitney ab = mann_whitney(a, b), ba = mann_whitney(b, a);
  EXPECT_DOUBLE_EQ(ab.u_a + ba.u_a, 30.0 * 40.0);
  EXPECT_DOUBLE_EQ(ab.p, ba.p);
  EXPECT_DOUBLE_EQ(ab.z, -ba.z);
}

TEST(MannWhitney, DegenerateInputsGivePOne) {
  const std::vector<double> same{2, 2, 2}, empty;
  EXPECT_EQ(mann_whitney(same, same).p, 1);
  EXPECT_EQ(mann_whitney(same, empty).p, 1);
  const std::vector<double> one{1}, other{1};
  EXPECT_EQ(mann_whitney(one, other).p, 1);
}

TEST(MannWhitney, PValuesUnderTheNullAreRoughlyUniform) {
  synthetic::TimingSource source(12);
  int below_5_percent = 0;
  for (int run = 0; run < 1000; ++run) {
    const auto a = source.timings(50, 1.0, 0.02), b = source.timings(50, 1.0, 0.02);
    below_5_percent += mann_whitney(a, b).p < 0.05 ? 1 : 0;
  }
  EXPECT_GE(below_5_percent, 30);
  EXPECT_LE(below_5_percent, 70);
}

TEST(MannWhitney, DetectsASmallShiftWithManySamples) {
  synthetic::TimingSource source(13);
  const auto a = source.timings(200, 1.0, 0.01), b = source.timings(200, 1.005, 0.01);
  const MannWhitney mw = mann_whitney(a, b);
  EXPECT_LT(mw.p, 1e-4);
  EXPECT_LT(mw.z, 0) << "a tends to be smaller";
}

}  // namespace
}  // namespace kblaster
