#include "cli/units.h"

#include <cstdio>

namespace kblaster {
namespace {

std::string scaled(double value, const char* unit) {
  static const char* kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int i = 0;
  while (value >= 1000.0 && i < 6) {
    value /= 1000.0;
    ++i;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, i == 0 ? "%.0f %s%s" : "%.1f %s%s", value, kPrefixes[i], unit);
  return buf;
}

}  // namespace

std::string format_bytes(std::int64_t bytes) { return scaled(static_cast<double>(bytes), "B"); }
std::string format_flops(std::int64_t flops) { return scaled(static_cast<double>(flops), "FLOP"); }

std::string format_seconds(double seconds) {
  char buf[32];
  if (seconds < 1e-3) std::snprintf(buf, sizeof buf, "%.0f us", seconds * 1e6);
  else if (seconds < 1.0) std::snprintf(buf, sizeof buf, "%.0f ms", seconds * 1e3);
  else std::snprintf(buf, sizeof buf, "%.1f s", seconds);
  return buf;
}

}  // namespace kblaster
