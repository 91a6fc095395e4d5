// Order statistics shared by the stats layer: quantiles by linear interpolation
// (Hyndman & Fan type 7, the default of R and NumPy) and the median.
#pragma once

#include <span>
#include <vector>

namespace kblaster {

// The p-quantile (0 <= p <= 1) of ascending `sorted`: the value at 0-based
// position h = (n-1)*p, interpolating between its neighbours. Empty input → 0.
double quantile_of_sorted(std::span<const double> sorted, double p);

// `values` in ascending order (a copy; the input is not touched).
std::vector<double> sorted_copy(std::span<const double> values);

// The median of `values` in any order (type 7: the mean of the two middle
// values when n is even). Empty input → 0.
double median_of(std::span<const double> values);

}  // namespace kblaster
