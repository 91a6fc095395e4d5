#include "stats/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace kblaster {

MannWhitney mann_whitney(std::span<const double> a, std::span<const double> b) {
  MannWhitney out;
  if (a.empty() || b.empty()) return out;
  std::vector<std::pair<double, bool>> all;  // (value, is from a)
  all.reserve(a.size() + b.size());
  for (double x : a) all.emplace_back(x, true);
  for (double y : b) all.emplace_back(y, false);
  std::sort(all.begin(), all.end(), [](const auto& l, const auto& r) { return l.first < r.first; });

  // Ranks are 1-based; a run of ties shares the average of its ranks.
  double rank_sum_a = 0, tie_term = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double average_rank = static_cast<double>(i + j + 1) / 2;
    for (std::size_t k = i; k < j; ++k) {
      if (all[k].second) rank_sum_a += average_rank;
    }
    tie_term += t * t * t - t;
    i = j;
  }

  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  const double n = na + nb;
  out.u_a = rank_sum_a - na * (na + 1) / 2;
  const double mean = na * nb / 2;
  const double variance = na * nb / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (!(variance > 0)) return out;
  const double distance = std::max(0.0, std::abs(out.u_a - mean) - 0.5);
  out.z = std::copysign(distance / std::sqrt(variance), out.u_a - mean);
  out.p = std::min(1.0, std::erfc(distance / std::sqrt(variance) / std::sqrt(2.0)));
  return out;
}

}  // namespace kblaster
