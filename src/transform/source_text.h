// Lexical helpers shared by the source appliers. Scanners work on a masked copy
// of the source, in which comments and literal contents are blanked, so they
// never match inside them, and every offset is also an offset into the original.
// Limits: no preprocessing: #if 0 blocks are scanned, macros are not expanded.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/source_regions.h"  // is_identifier_char, number_end: the lexer's own rules

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
// so lengths, offsets and lines match. Knows raw strings and digit separators
// (blank_source in core/source_regions.h).
std::string mask_source(std::string_view source);

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

// Whether `text` is an integer literal: starts with a digit, then only
// identifier characters and digit separators. Does not check the digits.
bool is_integer_literal(std::string_view text);

// Whether `span` of `masked` is a whole integer-literal token, not a piece of
// `x16`, `160`, `16.0f` or the exponent of `1e-16`. False when `span` runs past
// the end. Limit: `x1e-16` (an identifier ending in a digit and e) reads as an
// exponent too, which only makes it refuse more.
bool is_literal_token(std::string_view masked, Span span);

// The function whose body encloses an offset.
struct EnclosingFunction {
  std::string name;  // "a lambda" when no name precedes the parameter list
  Span body;         // between the braces; to the end when the '}' is missing
};

// The function whose body encloses `at`: the outermost block around it that
// opens after a parameter list (`) {`, `) const {`), so a lambda inside a function
// gives the function. nullopt outside any. Limits: after a member-initialiser
// list the name is the last initialiser's; an operator gives "a lambda"; a
// trailing return type hides the function.
std::optional<EnclosingFunction> enclosing_function(std::string_view masked, std::size_t at);

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
