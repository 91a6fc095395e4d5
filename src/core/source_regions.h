// C, C++ and CUDA source cut into code, comments and literals, for scanners that
// must not match inside comments or strings. Lexical only: no preprocessing, so
// #if 0 blocks are code and macros are not expanded.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

enum class RegionKind { code, comment, string_literal, char_literal };

// One stretch [begin, end) of a source. A comment runs from its "//" or "/*"; a
// literal from its opening quote (a prefix such as u8, L or R stays code).
struct SourceRegion {
  RegionKind kind = RegionKind::code;
  std::size_t begin = 0;
  std::size_t end = 0;
  // A literal's text: between the quotes, or inside a raw string's "delim(" and
  // ")delim"; a comment's, between its markers. Empty for code.
  std::size_t text_begin = 0;
  std::size_t text_end = 0;
  // False when the input (or, for an ordinary literal, the line) ended before the
  // closing "*/" or quote; a line comment is always closed.
  bool closed = true;

  std::string_view text(std::string_view source) const {
    return source.substr(text_begin, text_end - text_begin);
  }
};

// `source` as regions in order, covering every offset once, adjacent code merged.
// A line comment ends before its newline unless a backslash continues it. An
// ordinary literal honours backslash escapes and ends at its line's end at the
// latest; a raw string R"d(...)d" may span lines. A quote inside a number
// (1'000, 0xFF'FF) is a digit separator, and one in a header name (#include <a'b>,
// __has_include(<a'b>)) is code. Never fails: an unterminated comment or
// raw string runs to the end.
std::vector<SourceRegion> lex_regions(std::string_view source);

// A letter, digit or '_': a character of an identifier or of a number.
bool is_identifier_char(char c);

// The end of the preprocessing number (16, 16.0f, 1e-16, 0x10u, 0xFF'FF) that starts
// at `begin`: identifier characters, '.', a digit separator before an identifier
// character, and a sign after e, E, p or P. `begin` must be a valid offset.
std::size_t number_end(std::string_view source, std::size_t begin);

// What blank_source replaces with spaces.
enum class Blank {
  comments,
  comments_and_literals,  // also everything between a literal's quotes
};

// `source` with the chosen regions blanked; newlines are kept, so offsets and
// lines match the source. A literal keeps its prefix and quotes.
std::string blank_source(std::string_view source, Blank what);

}  // namespace kblaster
