#include "core/toml_text_guard.h"

namespace kblaster {
namespace {

bool unsafe(char32_t c) {
  // is_non_ascii_horizontal_whitespace's child indexes 0 and 11 ((c - 0xA0) / 0x3FA),
  // which its switch does not handle, less the code points it tests for first.
  return (c >= 0xA1 && c < 0xA0 + 0x3FA) ||
         (c >= 0xA0 + 11 * 0x3FA && c < 0xA0 + 12 * 0x3FA && c != 0x3000);
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
