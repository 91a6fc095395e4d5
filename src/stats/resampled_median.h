// The median of a bootstrap resample, drawn in O(1) instead of O(n).
#pragma once

#include <span>

#include "stats/random_source.h"

namespace kblaster {

// Resampling n values with replacement picks indices floor(n * U_i) for n
// uniforms U_i, so the resample's k-th smallest index is floor(n * U_(k)), and
// the order statistic U_(k) ~ Beta(k, n - k + 1) can be drawn directly. The
// result has exactly the distribution of median_of(resample): a type-7 median,
// the mean of the two middle values when n is even.
class ResampledMedian {
 public:
  // Keeps a view of `sorted` (ascending, non-empty), which must outlive this.
  explicit ResampledMedian(std::span<const double> sorted) : sorted_(sorted) {}

  double draw(RandomSource& random) const;

 private:
  double at(double u) const;  // sorted_[floor(n * u)], clamped to the last

  std::span<const double> sorted_;
};

}  // namespace kblaster
