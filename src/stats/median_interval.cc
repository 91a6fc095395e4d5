#include "stats/median_interval.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "stats/quantile.h"

namespace kblaster {

MedianInterval median_interval_of_sorted(std::span<const double> sorted, double z) {
  MedianInterval out;
  if (sorted.empty()) return out;
  const double n = static_cast<double>(sorted.size());
  const double spread = z * std::sqrt(n) / 2;
  const double j = std::clamp(std::floor(n / 2 - spread), 1.0, n);
  const double k = std::clamp(std::ceil(1 + n / 2 + spread), 1.0, n);
  out.low = sorted[static_cast<std::size_t>(j) - 1];
  out.high = sorted[static_cast<std::size_t>(k) - 1];
  out.median = quantile_of_sorted(sorted, 0.5);
  return out;
}

double relative_half_width(const MedianInterval& interval, std::size_t n) {
  if (n < 2 || !(interval.median > 0)) return std::numeric_limits<double>::infinity();
  return (interval.high - interval.low) / (2 * interval.median);
}

}  // namespace kblaster
