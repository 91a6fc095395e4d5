// Bootstrap confidence interval for the ratio of two medians, median(b)/median(a):
// how much slower (> 1) or faster (< 1) b is, with its uncertainty.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace kblaster {

struct BootstrapSpec {
  std::size_t resamples = 2000;
  double level = 0.99;  // two-sided confidence level of the interval
  std::uint64_t seed = 1;
};

struct RatioInterval {
  double low = 0, high = 0;
};

// Percentile interval: resamples a and b independently with replacement,
// takes median(b*)/median(a*) each time, and returns the (1-level)/2 and
// (1+level)/2 quantiles of those ratios. Each resampled median is drawn in O(1)
// (stats/resampled_median.h), so the cost is O(n log n + resamples), and the
// same seed gives the same interval on every platform. Empty input, a zero
// median or zero resamples → {0, 0}. Values must not be NaN.
RatioInterval bootstrap_median_ratio(std::span<const double> a, std::span<const double> b,
                                     BootstrapSpec spec = {});

}  // namespace kblaster
