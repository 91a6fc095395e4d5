#include "stats/random_source.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "stats/summary.h"

namespace kblaster {
namespace {

TEST(RandomSource, SameSeedSameStream) {
  RandomSource x(77), y(77), z(78);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(x.normal(), y.normal());
  EXPECT_NE(x.uniform(), z.uniform());
}

TEST(RandomSource, IndexCoversItsRangeAndOnlyIt) {
  RandomSource r(11);
  std::vector<int> hits(5, 0);
  for (int i = 0; i < 5000; ++i) {
    const std::size_t k = r.index(5);
    ASSERT_LT(k, 5u);
    ++hits[k];
  }
  for (int h : hits) EXPECT_NEAR(h, 1000, 150);
  RandomSource one(3);
  EXPECT_EQ(one.index(1), 0u);
}

TEST(RandomSource, UniformAndNormalHaveTheirMoments) {
  RandomSource random(1);
  std::vector<double> u, n;
  for (int i = 0; i < 100000; ++i) {
    u.push_back(random.uniform());
    n.push_back(random.normal());
  }
  const Summary su = summarize(u), sn = summarize(n);
  EXPECT_GE(su.min, 0);
  EXPECT_LT(su.max, 1);
  EXPECT_NEAR(su.mean, 0.5, 0.005);
  EXPECT_NEAR(sn.mean, 0, 0.01);
  EXPECT_NEAR(sn.stdev, 1, 0.01);
}

TEST(RandomSource, GammaAndBetaHaveTheirMeansAndVariances) {
  RandomSource random(2);
  for (double shape : {0.5, 1.0, 3.0, 500.0}) {
    std::vector<double> g;
    for (int i = 0; i < 50000; ++i) g.push_back(random.gamma(shape));
    const Summary s = summarize(g);
    EXPECT_NEAR(s.mean, shape, 0.03 * shape) << "shape " << shape;
    EXPECT_NEAR(s.stdev, std::sqrt(shape), 0.03 * std::sqrt(shape)) << "shape " << shape;
  }
  std::vector<double> b;
  for (int i = 0; i < 50000; ++i) b.push_back(random.beta(2, 6));
  const Summary s = summarize(b);
  EXPECT_NEAR(s.mean, 0.25, 0.003);
  EXPECT_NEAR(s.stdev, std::sqrt(2.0 * 6 / (64 * 9)), 0.003);
}

}  // namespace
}  // namespace kblaster
