#include "stats/resampled_median.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

#include "stats/quantile.h"

namespace kblaster {
namespace {

// The frequency of each value of median_of(resample) over `draws` resamples.
template <class Draw>
std::map<double, double> frequencies(Draw draw, int draws) {
  std::map<double, double> out;
  for (int i = 0; i < draws; ++i) out[draw()] += 1.0 / draws;
  return out;
}

double binomial_at_least(int n, double p, int k) {  // P(Binomial(n, p) >= k)
  double sum = 0;
  for (int i = k; i <= n; ++i)
    sum += std::tgamma(n + 1.0) / (std::tgamma(i + 1.0) * std::tgamma(n - i + 1.0)) *
           std::pow(p, i) * std::pow(1 - p, n - i);
  return sum;
}

TEST(ResampledMedian, OddCountMatchesTheExactBootstrapDistribution) {
  // For n = 9 the resample's median is <= x_j iff at least 5 draws land on
  // x_1..x_j: P = P(Binomial(9, j/9) >= 5).
  const std::vector<double> sorted{1, 2, 3, 4, 5, 6, 7, 8, 9};
  const ResampledMedian median(sorted);
  RandomSource random(3);
  const auto freq = frequencies([&] { return median.draw(random); }, 200000);
  double cumulative = 0;
  for (int j = 1; j <= 9; ++j) {
    cumulative += freq.count(j) ? freq.at(j) : 0;
    EXPECT_NEAR(cumulative, binomial_at_least(9, j / 9.0, 5), 0.004) << "x_" << j;
  }
}

TEST(ResampledMedian, EvenCountMatchesBruteForceResampling) {
  const std::vector<double> sorted{1, 2, 4, 8, 16, 32};
  const ResampledMedian median(sorted);
  RandomSource fast(4), slow(5);
  const auto drawn = frequencies([&] { return median.draw(fast); }, 200000);
  const auto brute = frequencies(
      [&] {
        std::vector<double> resample;
        for (std::size_t i = 0; i < sorted.size(); ++i) {
          resample.push_back(sorted[static_cast<std::size_t>(slow.uniform() * 6)]);
        }
        return median_of(resample);
      },
      200000);
  for (const auto& [value, p] : brute) {
    EXPECT_NEAR(drawn.count(value) ? drawn.at(value) : 0, p, 0.005) << "median " << value;
  }
  for (const auto& [value, p] : drawn) EXPECT_TRUE(brute.count(value) || p < 1e-3) << value;
}

TEST(ResampledMedian, SingleValueAndSameSeedAreExact) {
  const std::vector<double> one{7};
  RandomSource random(1);
  EXPECT_EQ(ResampledMedian(one).draw(random), 7);
  const std::vector<double> sorted{1, 2, 3, 4};
  RandomSource x(9), y(9);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(ResampledMedian(sorted).draw(x), ResampledMedian(sorted).draw(y));
}

}  // namespace
}  // namespace kblaster
