// Guard regions around the buffers a candidate is handed: a canary pattern
// before each buffer's start and after its end, and the pure host check that
// finds a guard the launch changed (docs/harness-protocol.md, "Guard regions").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace kblaster::harness {

// Bytes of each guard. A whole number of cudaMalloc's 256-byte alignment units,
// so the pointer after the leading guard is aligned as cudaMalloc's own is.
constexpr std::size_t kGuardBytes = 4096;
static_assert(kGuardBytes % 256 == 0, "the data after a guard must stay 256-byte aligned");

enum class GuardSide { before, after };
// "before" or "after": the stable spelling of `side` in a verdict's detail.
const char* guard_side_name(GuardSide side);

// The kGuardBytes canary bytes of argument `arg_index`'s guard on `side`: 32-bit
// little-endian words, word k = 0xCA11AB1E ^ (2·arg_index + side + 1)·0x9E3779B9
// ^ k·0x85EBCA6B (mod 2^32; side 0 before, 1 after), so each buffer and side differ.
std::vector<unsigned char> canary_bytes(std::size_t arg_index, GuardSide side);

// What a launch did to one guard.
struct GuardDamage {
  std::size_t first = 0;    // offset in the guard of the lowest changed byte
  std::size_t changed = 0;  // bytes that no longer hold the canary
};

// The damage to a guard of `bytes` bytes that should hold `canary`; nullopt
// when every byte still holds it. A byte written with its canary value is unseen.
std::optional<GuardDamage> find_guard_damage(const unsigned char* guard,
                                             const unsigned char* canary, std::size_t bytes);

}  // namespace kblaster::harness
