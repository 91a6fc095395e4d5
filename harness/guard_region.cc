#include "guard_region.h"

#include <cstdint>

namespace kblaster::harness {

const char* guard_side_name(GuardSide side) {
  return side == GuardSide::before ? "before" : "after";
}

std::vector<unsigned char> canary_bytes(std::size_t arg_index, GuardSide side) {
  const std::uint32_t key = canary_key(arg_index, side);
  std::vector<unsigned char> out(kGuardBytes);
  for (std::size_t i = 0; i < kGuardBytes; ++i) out[i] = canary_byte(key, i);
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
