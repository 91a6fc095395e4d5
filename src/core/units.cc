#include "core/units.h"

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

// Three significant digits: "4.27 us", "65.9 us", "741 us", "2.10 ms", "1.2 s".
std::string format_seconds(double seconds) {
  char buf[32];
  const double scaled = seconds < 1e-3 ? seconds * 1e6 : seconds < 1.0 ? seconds * 1e3 : seconds;
  const char* unit = seconds < 1e-3 ? "us" : seconds < 1.0 ? "ms" : "s";
  const int decimals = scaled < 10 ? 2 : scaled < 100 ? 1 : 0;
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, scaled, unit);
  return buf;
}

}  // namespace kblaster
