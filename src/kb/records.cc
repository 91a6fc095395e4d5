#include "kb/records.h"

#include <algorithm>

namespace kblaster {

double TechniqueStats::variance_log_speedup() const {
  if (measured < 2) return 0.0;
  const double n = static_cast<double>(measured);
  const double centred = sum_sq_log_speedup - sum_log_speedup * sum_log_speedup / n;
  return std::max(0.0, centred / (n - 1));  // rounding may dip just below 0
}

}  // namespace kblaster
