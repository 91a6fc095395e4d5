#include "stats/resampled_median.h"

#include <algorithm>
#include <cmath>

namespace kblaster {

double ResampledMedian::at(double u) const {
  const double n = static_cast<double>(sorted_.size());
  const auto i = static_cast<std::size_t>(std::clamp(std::floor(n * u), 0.0, n - 1));
  return sorted_[i];
}

double ResampledMedian::draw(RandomSource& random) const {
  const std::size_t n = sorted_.size();
  if (n == 1) return sorted_[0];
  // 1-based rank k of the lower middle: U_(k) ~ Beta(k, n - k + 1).
  const std::size_t k = (n + 1) / 2;
  const double lower_u = random.beta(static_cast<double>(k), static_cast<double>(n - k + 1));
  const double lower = at(lower_u);
  if (n % 2 == 1) return lower;
  // Given U_(k) = u, the other n - k uniforms are iid on (u, 1); U_(k+1) is
  // their minimum: u + (1 - u) * (1 - V^(1 / (n - k))).
  const double v = 1 - random.uniform();
  const double gap = -std::expm1(std::log(v) / static_cast<double>(n - k));
  const double upper_u = lower_u + (1 - lower_u) * gap;
  return lower + (at(upper_u) - lower) / 2;
}

}  // namespace kblaster
