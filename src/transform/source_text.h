// Lexical helpers shared by the source appliers. Scanners work on a masked copy
// of the source, in which comments and literal contents are blanked, so they
// never match inside them, and every offset is also an offset into the original.
// Limits: no preprocessing: #if 0 blocks are scanned, macros are not expanded.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

// A half-open range [begin, end) of offsets into a source.
struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string_view of(std::string_view text) const { return text.substr(begin, end - begin); }
  bool empty() const { return begin >= end; }
};

// `source` with every comment character and every character inside a string or
// character literal (the quotes are kept) replaced by a space. Newlines are kept,
// so lengths, offsets and lines match. Knows raw strings and digit separators.
std::string mask_source(std::string_view source);

bool is_identifier_char(char c);

// Offsets at which `word` occurs as a whole identifier in `masked`, in order.
std::vector<std::size_t> find_words(std::string_view masked, std::string_view word);

// The identifier starting at `pos`, or an empty span.
Span identifier_at(std::string_view masked, std::size_t pos);

// The first offset at or after `pos` that is not whitespace (or masked.size()).
std::size_t skip_spaces(std::string_view masked, std::size_t pos);

// The offset of the bracket that closes the '(', '[' or '{' at `open`, counting
// all three kinds; for '<', the matching '>' (giving up at ';' or '{'). npos
// when unbalanced.
std::size_t find_closing(std::string_view masked, std::size_t open);

// Whether '<' and '>' nest like brackets (template arguments) or are operators.
enum class AngleBrackets { operators, nest };

// `range` cut at each `separator` outside brackets ((), [], {}, and <> when they
// nest), each piece trimmed of whitespace. An empty range gives no pieces.
std::vector<Span> split_top_level(std::string_view masked, Span range, char separator,
                                  AngleBrackets angles = AngleBrackets::operators);

Span trim(std::string_view masked, Span range);

// `text` with each run of whitespace turned into one space.
std::string collapse_spaces(std::string_view text);

// A text to insert into a source before the character at `offset`.
struct Insertion {
  std::size_t offset = 0;
  std::string text;
};

// `source` with all `edits` made; edits at one offset keep their order.
std::string apply_insertions(std::string_view source, std::vector<Insertion> edits);

}  // namespace kblaster
