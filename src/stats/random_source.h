// Seeded random draws for the bootstrap, built only on mt19937_64 (whose output
// the standard fixes), so a seed gives the same numbers on every platform;
// std's distributions are implementation-defined and would not.
#pragma once

#include <cstdint>
#include <random>

namespace kblaster {

// Not thread-safe; one per thread or computation. Copyable (copies the state).
class RandomSource {
 public:
  explicit RandomSource(std::uint64_t seed) : engine_(seed) {}

  double uniform();                  // in [0, 1), 53 random bits
  std::size_t index(std::size_t n);  // in [0, n) from one uniform draw; n > 0
  double normal();                   // standard normal (Box-Muller; one draw per call)
  double gamma(double shape);        // Gamma(shape, 1), shape > 0 (Marsaglia-Tsang)
  double beta(double a, double b);   // Beta(a, b), a, b > 0, in [0, 1]

 private:
  std::mt19937_64 engine_;
};

}  // namespace kblaster
