#include "report/number_text.h"

#include <cmath>
#include <cstdio>
#include <utility>

namespace kblaster {

std::string format_number(double v, int digits) {
  if (!std::isfinite(v)) return "n/a";
  char buf[48];
  const double a = std::fabs(v);
  // Below 1e6 without an exponent ("65536", not "6.554e+04"); beyond, and below
  // 1e-4, with one and no trailing zeros ("1e+12").
  if (a >= std::pow(10.0, digits) && a < 1e6)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string format_ratio(double v) {
  return std::isfinite(v) ? format_number(v) + "\u00d7" : "n/a";
}

std::string format_ratio(const Estimate& e) {
  std::string out = format_ratio(e.value);
  if (e.low && e.high)
    out += " (" + format_number(*e.low) + "\u2013" + format_number(*e.high) + ")";
  return out;
}

std::string format_si(double v) {
  if (!std::isfinite(v)) return "n/a";
  constexpr std::pair<double, const char*> kPrefixes[] = {
      {1e15, " P"}, {1e12, " T"}, {1e9, " G"}, {1e6, " M"}, {1e3, " k"}};
  for (const auto& [scale, prefix] : kPrefixes)
    if (std::fabs(v) >= scale && std::fabs(v) < scale * 1000)
      return format_number(v / scale, 3) + prefix;
  return format_number(v, 3);
}

std::string format_duration(double s) {
  if (!std::isfinite(s)) return "n/a";
  const double a = std::fabs(s);
  if (a != 0.0 && a < 1e-3) return format_number(s * 1e6, 3) + " \u00b5s";
  if (a != 0.0 && a < 1.0) return format_number(s * 1e3, 3) + " ms";
  return format_number(s, 3) + " s";
}

std::string format_metric(const std::optional<double>& v, const std::string& unit) {
  if (!v) return "\u2013";
  return format_number(*v) + (unit.empty() ? "" : " " + unit);
}

std::string format_change(const std::optional<double>& before, const std::optional<double>& after) {
  if (!before || !after || *before == 0.0) return "";
  const double change = (*after - *before) / std::fabs(*before) * 100.0;
  if (!std::isfinite(change)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", std::fabs(change) < 0.05 ? 0.0 : change);
  return buf;
}

}  // namespace kblaster
