// The Mann-Whitney U test (Wilcoxon rank-sum): do two samples come from the same
// distribution, or does one tend to be larger? Rank-based, so robust to outliers.
#pragma once

#include <span>

namespace kblaster {

struct MannWhitney {
  double u_a = 0;  // U of `a`: pairs (x in a, y in b) with x > y, ties counting 1/2
  double z = 0;    // standardized statistic, with continuity correction; sign of U_a - mean
  double p = 1;    // two-sided p-value
};

// Normal approximation with tie correction and a 0.5 continuity correction (as
// R's wilcox.test(exact = FALSE) and SciPy's method="asymptotic"). p = 1 when
// either sample is empty or every value is tied. Values must not be NaN.
MannWhitney mann_whitney(std::span<const double> a, std::span<const double> b);

}  // namespace kblaster
