// A distribution-free confidence interval for the median, from order statistics:
// it assumes nothing about the shape of the timing distribution (tails, modes).
#pragma once

#include <cstddef>
#include <span>

namespace kblaster {

// [low, high] brackets the population median with ~95% confidence at z = 1.96.
struct MedianInterval {
  double low = 0, median = 0, high = 0;
};

// `sorted` ascending. Uses the 1-based order statistics j = floor(n/2 - z*sqrt(n)/2)
// and k = ceil(1 + n/2 + z*sqrt(n)/2), clamped to [1, n] (the normal approximation
// to the binomial count of samples below the median). Empty input → all zeros.
MedianInterval median_interval_of_sorted(std::span<const double> sorted, double z = 1.96);

// (high - low) / (2 * median): the interval's relative half-width. Infinite when
// fewer than 2 samples or a non-positive median make it meaningless.
double relative_half_width(const MedianInterval& interval, std::size_t n);

}  // namespace kblaster
