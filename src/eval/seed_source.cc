#include "eval/seed_source.h"

#include <random>

namespace kblaster {

std::uint64_t draw_seed() { return std::random_device{}() | 1u; }

std::uint64_t timing_seed(std::uint64_t run_seed, int index) {
  return run_seed == 0 ? 0 : run_seed + 1000 + static_cast<std::uint64_t>(index);
}

}  // namespace kblaster
