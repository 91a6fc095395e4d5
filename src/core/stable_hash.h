// FNV-1a, 64 bit: a short hash that is the same on every run and platform, unlike
// std::hash. For identities, not for security; gpu/content_hash's SHA-256 is the
// compile cache's key, and the layers that use this do not link OpenSSL.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kblaster {

inline constexpr std::uint64_t kFnv1aOffsetBasis = 14695981039346656037ull;

// Hashes bytes as they are added. `offset_basis` is FNV-1a's unless an existing
// identity was made with another (kb/store.cc's lesson ids).
class Fnv1a {
 public:
  constexpr explicit Fnv1a(std::uint64_t offset_basis = kFnv1aOffsetBasis) : h_(offset_basis) {}
  constexpr void add(std::string_view bytes) {
    for (unsigned char c : bytes) h_ = (h_ ^ c) * 1099511628211ull;  // the FNV 64-bit prime
  }
  constexpr std::uint64_t value() const { return h_; }
  std::string hex() const;  // value() as 16 lower-case hex digits

 private:
  std::uint64_t h_;
};

// FNV-1a of `text` as 16 hex digits.
std::string stable_hash(std::string_view text);

}  // namespace kblaster
