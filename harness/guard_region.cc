#include "guard_region.h"

#include <cstdint>

namespace kblaster::harness {

const char* guard_side_name(GuardSide side) {
  return side == GuardSide::before ? "before" : "after";
}

std::vector<unsigned char> canary_bytes(std::size_t arg_index, GuardSide side) {
  const std::uint32_t stream_key =
      static_cast<std::uint32_t>(2 * arg_index + (side == GuardSide::after ? 1 : 0) + 1) *
      0x9E3779B9u;
  std::vector<unsigned char> out(kGuardBytes);
  for (std::size_t k = 0; k < kGuardBytes / 4; ++k) {
    const std::uint32_t word =
        0xCA11AB1Eu ^ stream_key ^ (static_cast<std::uint32_t>(k) * 0x85EBCA6Bu);
    for (std::size_t b = 0; b < 4; ++b)
      out[4 * k + b] = static_cast<unsigned char>(word >> (8 * b));
  }
  return out;
}

std::optional<GuardDamage> find_guard_damage(const unsigned char* guard,
                                             const unsigned char* canary, std::size_t bytes) {
  std::optional<GuardDamage> damage;
  for (std::size_t i = 0; i < bytes; ++i) {
    if (guard[i] == canary[i]) continue;
    if (!damage) damage = GuardDamage{i, 0};
    ++damage->changed;
  }
  return damage;
}

}  // namespace kblaster::harness
