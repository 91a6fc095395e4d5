#include "stats/random_source.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace kblaster {

double RandomSource::uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

std::size_t RandomSource::index(std::size_t n) {
  return std::min(n - 1, static_cast<std::size_t>(uniform() * static_cast<double>(n)));
}

double RandomSource::normal() {
  const double u = 1 - uniform();  // (0, 1], so the log is finite
  const double v = uniform();
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * v);
}

double RandomSource::gamma(double shape) {
  if (shape < 1) {  // boost: Gamma(a) = Gamma(a + 1) * U^(1/a)
    return gamma(shape + 1) * std::pow(1 - uniform(), 1 / shape);
  }
  const double d = shape - 1.0 / 3, c = 1 / std::sqrt(9 * d);
  while (true) {
    const double x = normal();
    double v = 1 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    const double u = 1 - uniform();
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (std::log(u) < x * x / 2 + d * (1 - v + std::log(v))) return d * v;
  }
}

double RandomSource::beta(double a, double b) {
  const double x = gamma(a), y = gamma(b);
  return x / (x + y);
}

}  // namespace kblaster
