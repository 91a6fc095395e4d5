#include "stats/speedup_text.h"

#include <cmath>
#include <cstdio>

namespace kblaster {

std::string percent_gain(double log_speedup) {
  double percent = std::expm1(log_speedup) * 100.0;
  if (std::fabs(percent) < 0.05) percent = 0.0;  // one decimal: no "-0.0%"
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", percent);
  return buf;
}

std::string speedup_times(double log_speedup) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3fx", std::exp(log_speedup));
  return buf;
}

}  // namespace kblaster
