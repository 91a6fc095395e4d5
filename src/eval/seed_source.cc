#include "eval/seed_source.h"

#include <random>

namespace kblaster {

std::uint64_t draw_seed() { return std::random_device{}() | 1u; }

}  // namespace kblaster
