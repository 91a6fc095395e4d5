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

#if defined(__CUDACC__)
#define KBH_HOST_DEVICE __host__ __device__
#else
#define KBH_HOST_DEVICE
#endif

// The canary of argument `arg_index`'s guard on `side` is 32-bit little-endian
// words, word k = 0xCA11AB1E ^ key ^ k·0x85EBCA6B (mod 2^32), with this key:
// (2·arg_index + side + 1)·0x9E3779B9 (side 0 before, 1 after), so each guard differs.
KBH_HOST_DEVICE inline std::uint32_t canary_key(std::size_t arg_index, GuardSide side) {
  return static_cast<std::uint32_t>(2 * arg_index + (side == GuardSide::after ? 1 : 0) + 1) *
         0x9E3779B9u;
}
// Byte `offset` of the canary with `key` (the same on the host and the device).
KBH_HOST_DEVICE inline unsigned char canary_byte(std::uint32_t key, std::size_t offset) {
  const std::uint32_t word =
      0xCA11AB1Eu ^ key ^ (static_cast<std::uint32_t>(offset / 4) * 0x85EBCA6Bu);
  return static_cast<unsigned char>(word >> (8 * (offset % 4)));
}
// The kGuardBytes canary bytes of argument `arg_index`'s guard on `side`.
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
