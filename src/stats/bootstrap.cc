#include "stats/bootstrap.h"

#include <algorithm>
#include <vector>

#include "stats/quantile.h"
#include "stats/random_source.h"
#include "stats/resampled_median.h"

namespace kblaster {

RatioInterval bootstrap_median_ratio(std::span<const double> a, std::span<const double> b,
                                     BootstrapSpec spec) {
  if (a.empty() || b.empty() || spec.resamples == 0) return {};
  const std::vector<double> sorted_a = sorted_copy(a), sorted_b = sorted_copy(b);
  const ResampledMedian median_a(sorted_a), median_b(sorted_b);
  RandomSource random(spec.seed);
  std::vector<double> ratios;
  ratios.reserve(spec.resamples);
  for (std::size_t r = 0; r < spec.resamples; ++r) {
    const double ma = median_a.draw(random);
    const double mb = median_b.draw(random);
    if (ma == 0) return {};
    ratios.push_back(mb / ma);
  }
  std::sort(ratios.begin(), ratios.end());
  const double tail = (1 - spec.level) / 2;
  return {quantile_of_sorted(ratios, tail), quantile_of_sorted(ratios, 1 - tail)};
}

}  // namespace kblaster
