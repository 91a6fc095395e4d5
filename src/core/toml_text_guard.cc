#include "core/toml_text_guard.h"

#include <cstdint>
#include <string>

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

namespace {

bool is_bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '+';
}

// Reads text[i..] as the scanner goes, keeping the line and column of `i`.
struct Cursor {
  std::string_view text;
  std::size_t i = 0;
  int line = 1, column = 1;
  bool done() const { return i >= text.size(); }
  char at() const { return text[i]; }
  bool starts(std::string_view s) const { return text.substr(i, s.size()) == s; }
  void step() {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    ++i;
  }
  // Past a string opened by `quote` at i (one or three quote characters); a basic string's
  // backslash escapes the character after it. A one-line string also ends at a newline.
  void skip_string(std::string_view quote) {
    const bool basic = quote[0] == '"';
    for (std::size_t k = 0; k < quote.size(); ++k) step();
    while (!done()) {
      if (starts(quote)) {
        for (std::size_t k = 0; k < quote.size(); ++k) step();
        return;
      }
      if (quote.size() == 1 && at() == '\n') return;
      if (basic && at() == '\\') step();
      if (!done()) step();
    }
  }
};

}  // namespace

std::optional<DeepKey> find_deep_toml_key(std::string_view text, std::size_t max_parts) {
  Cursor in{text};
  DeepKey chain;
  bool after_part = false, after_dot = false;
  auto reset = [&] { after_part = after_dot = false; };
  auto part = [&](int line, int column) {  // a bare or quoted key part ends at `in`
    if (!after_dot) chain = {line, column, 0};
    ++chain.parts;
    after_part = true;
    after_dot = false;
  };
  while (!in.done()) {
    const char c = in.at();
    const int line = in.line, column = in.column;
    if (c == '#') {
      while (!in.done() && in.at() != '\n') in.step();
    } else if (c == ' ' || c == '\t' || c == '\r') {
      in.step();
    } else if (c == '"' || c == '\'') {
      const std::string triple(3, c);
      if (in.starts(triple)) {  // a multi-line string is a value, never a key part
        in.skip_string(triple);
        reset();
      } else {
        in.skip_string(std::string(1, c));
        part(line, column);
      }
    } else if (is_bare_key_char(c)) {
      while (!in.done() && is_bare_key_char(in.at())) in.step();
      part(line, column);
    } else if (c == '.' && after_part) {
      in.step();
      after_part = false;
      after_dot = true;
    } else {
      in.step();
      reset();
    }
    if (chain.parts > max_parts) return chain;
  }
  return std::nullopt;
}

}  // namespace kblaster
