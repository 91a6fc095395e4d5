#include "stats/context_choice.h"

#include <algorithm>
#include <limits>

namespace kblaster {

std::size_t typical_fast_context(const std::vector<double>& medians) {
  double lowest = std::numeric_limits<double>::infinity();
  for (double m : medians)
    if (m > 0) lowest = std::min(lowest, m);
  if (lowest == std::numeric_limits<double>::infinity()) return 0;
  std::vector<std::size_t> fast;
  for (std::size_t i = 0; i < medians.size(); ++i)
    if (medians[i] > 0 && medians[i] <= lowest * (1 + kFastModeWidth)) fast.push_back(i);
  std::stable_sort(fast.begin(), fast.end(),
                   [&](std::size_t a, std::size_t b) { return medians[a] < medians[b]; });
  return fast[(fast.size() - 1) / 2];
}

}  // namespace kblaster
