// Seeded synthetic timing samples for the stats tests: no GPU and no clocks.
// Draws come from stats/random_source.h, so they are the same on every platform.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "stats/random_source.h"

namespace kblaster::synthetic {

class TimingSource {
 public:
  explicit TimingSource(std::uint64_t seed) : random_(seed) {}

  double uniform() { return random_.uniform(); }
  double normal() { return random_.normal(); }

  // A timing around `median` with relative normal noise.
  double timing(double median, double rel_noise) { return median * (1 + rel_noise * normal()); }

  // A log-normal timing: heavy right tail, as GPU timings under contention have.
  double lognormal(double median, double sigma) { return median * std::exp(sigma * normal()); }

  std::vector<double> timings(std::size_t n, double median, double rel_noise) {
    std::vector<double> out(n);
    for (double& x : out) x = timing(median, rel_noise);
    return out;
  }

 private:
  RandomSource random_;
};

}  // namespace kblaster::synthetic
