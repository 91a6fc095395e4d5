#include "core/toml_text_guard.h"

#include <cstdint>

namespace kblaster {
namespace {

// Mirrors toml++ 3.3.0's is_non_ascii_horizontal_whitespace: true exactly
// where it falls through to TOML_UNREACHABLE.
bool unsafe(char32_t c) {
  if (c < 0xA0 || c > 0xFEFF) return false;
  const auto child_index = (static_cast<std::uint64_t>(c) - 0xA0) / 0x3FA;
  if ((1ULL << child_index) & 0x7FFFFFFFFFFFF75EULL) return false;  // answered "no" at once
  if (c == 0xA0 || c == 0x3000 || c == 0xFEFF) return false;        // answered "yes"
  return child_index != 5 && child_index != 7;                      // its switch's two cases
}

}  // namespace

std::optional<UnsafeCharacter> find_unsafe_toml_character(std::string_view text) {
  UnsafeCharacter at;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80           ? 1
                               : (lead >> 5) == 0x6  ? 2
                               : (lead >> 4) == 0xE  ? 3
                               : (lead >> 3) == 0x1E ? 4
                                                     : 1;
    char32_t c = length == 1 ? lead : lead & (0x7F >> length);
    for (std::size_t k = 1; k < length && i + k < text.size(); ++k)
      c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    if (unsafe(c)) {
      at.code_point = c;
      return at;
    }
    if (lead == '\n') {
      ++at.line;
      at.column = 1;
    } else {
      ++at.column;
    }
    i += length;
  }
  return std::nullopt;
}

}  // namespace kblaster
