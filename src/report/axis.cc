#include "report/axis.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kblaster {
namespace {

// The smallest of 1, 2, 5 times a power of ten that is >= x (x > 0).
double nice_step(double x) {
  const double p = std::pow(10.0, std::floor(std::log10(x)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= x * (1 - 1e-12)) return m * p;
  return 10.0 * p;
}

// Beyond this magnitude a value is not placed: axis arithmetic would overflow.
constexpr double kLargest = 1e300;

bool placeable(double v, Scale scale) {
  return std::isfinite(v) && std::fabs(v) <= kLargest &&
         (scale == Scale::linear || v >= 1.0 / kLargest);
}

// Values of the 1-2-5 sequence from the one at or below `lo` to the one at or above `hi`.
std::vector<double> one_two_five(double lo, double hi) {
  std::vector<double> out;
  const int first_decade = static_cast<int>(std::floor(std::log10(lo)));
  const int last_decade = static_cast<int>(std::ceil(std::log10(hi)));
  for (int e = first_decade; e <= last_decade; ++e)
    for (double m : {1.0, 2.0, 5.0}) out.push_back(m * std::pow(10.0, e));
  auto first = std::upper_bound(out.begin(), out.end(), lo * (1 + 1e-12));
  auto last = std::lower_bound(out.begin(), out.end(), hi * (1 - 1e-12));
  return {first == out.begin() ? first : first - 1, last == out.end() ? last : last + 1};
}

Axis linear_axis(double lo, double hi, int max_ticks) {
  if (lo == hi) {
    const double pad = lo == 0.0 ? 1.0 : std::fabs(lo) * 0.1;
    lo = lo == 0.0 ? 0.0 : lo - pad, hi += pad;
  }
  const double step = nice_step((hi - lo) / std::max(1, max_ticks - 1));
  Axis a{.scale = Scale::linear,
         .lo = std::floor(lo / step) * step,
         .hi = std::ceil(hi / step) * step,
         .ticks = {}};
  for (int i = 0; i <= 2 * max_ticks && a.lo + i * step <= a.hi + step * 1e-9; ++i)
    a.ticks.push_back(a.lo + i * step);
  return a;
}

Axis log_axis(double lo, double hi, int max_ticks) {
  std::vector<double> steps = one_two_five(lo, hi);
  if (steps.size() < 2) steps.push_back(steps.back() * 2);
  Axis a{.scale = Scale::log, .lo = steps.front(), .hi = steps.back(), .ticks = {}};
  if (static_cast<int>(steps.size()) <= max_ticks) {
    a.ticks = steps;
    return a;
  }
  // Too many for 1-2-5: whole decades, every k-th, and the last, so that at most
  // about max_ticks remain.
  const int e_lo = static_cast<int>(std::floor(std::log10(lo)));
  const int e_hi = static_cast<int>(std::ceil(std::log10(hi)));
  const int k = std::max(1, (e_hi - e_lo + max_ticks - 2) / std::max(1, max_ticks - 1));
  a.ticks.clear();
  for (int e = e_lo; e < e_hi; e += k) a.ticks.push_back(std::pow(10.0, e));
  a.ticks.push_back(std::pow(10.0, e_hi));
  a.lo = a.ticks.front(), a.hi = a.ticks.back();
  return a;
}

}  // namespace

double Axis::position(double v) const {
  if (!placeable(v, scale)) return std::numeric_limits<double>::quiet_NaN();
  // Logs taken apart: hi / lo may overflow.
  const double p = scale == Scale::log
                       ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo))
                       : (v - lo) / (hi - lo);
  return std::clamp(p, 0.0, 1.0);
}

Axis make_axis(std::span<const double> values, Scale scale, int max_ticks) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double v : values) {
    if (placeable(v, scale)) lo = std::min(lo, v), hi = std::max(hi, v);
  }
  if (lo > hi) lo = hi = scale == Scale::log ? 1.0 : 0.0;
  if (scale == Scale::linear) return linear_axis(lo, hi, max_ticks);
  return log_axis(lo, hi == lo ? lo * 1.0000001 : hi, max_ticks);
}

Scale scale_for(std::span<const double> values, double ratio) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  for (double v : values)
    if (placeable(v, Scale::log)) lo = std::min(lo, v), hi = std::max(hi, v);
  return hi > lo * ratio ? Scale::log : Scale::linear;
}

}  // namespace kblaster
