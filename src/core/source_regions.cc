#include "core/source_regions.h"

#include <cctype>
#include <optional>

namespace kblaster {
namespace {

constexpr auto npos = std::string_view::npos;

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

// What the run of identifier characters just before the cursor is: a raw string's
// prefix is an identifier, and only a number holds digit separators.
enum class Word { none, identifier, number };

SourceRegion code(std::size_t begin, std::size_t end) {
  return {RegionKind::code, begin, end, begin, begin, true};
}

// Whether the character at `i` (> 0) continues the number before it: a
// preprocessing number takes identifier characters, '.', a digit separator
// before an identifier character, and a sign after an exponent letter.
bool continues_number(std::string_view s, std::size_t i) {
  const char c = s[i];
  if (is_identifier_char(c) || c == '.') return true;
  if (c == '\'') return i + 1 < s.size() && is_identifier_char(s[i + 1]);
  return (c == '+' || c == '-') && std::string_view("eEpP").find(s[i - 1]) != npos;
}

bool raw_prefix(std::string_view word) {
  return word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR";
}

// Whether the newline at `i` is spliced away: a backslash ends its line, before a CR or not.
bool spliced(std::string_view s, std::size_t i) {
  return (i >= 1 && s[i - 1] == '\\') || (i >= 2 && s[i - 1] == '\r' && s[i - 2] == '\\');
}

// The comment from the "//" at `at` to its line's end; a backslash-newline continues it.
SourceRegion line_comment(std::string_view s, std::size_t at) {
  std::size_t end = at + 2;
  while (end < s.size() && !(s[end] == '\n' && !spliced(s, end))) ++end;
  return {RegionKind::comment, at, end, at + 2, end, true};
}

SourceRegion block_comment(std::string_view s, std::size_t at) {
  const auto close = s.find("*/", at + 2);
  if (close == npos) return {RegionKind::comment, at, s.size(), at + 2, s.size(), false};
  return {RegionKind::comment, at, close + 2, at + 2, close, true};
}

// The raw string whose opening quote is at `at`: "delim( ... )delim".
SourceRegion raw_string(std::string_view s, std::size_t at) {
  const auto paren = s.find('(', at + 1);
  if (paren == npos) return {RegionKind::string_literal, at, s.size(), s.size(), s.size(), false};
  // Built by append: GCC 12 misreads `")" + str + "\""` (-Wrestrict).
  const std::string terminator =
      std::string(")").append(s.substr(at + 1, paren - at - 1)).append("\"");
  const auto close = s.find(terminator, paren + 1);
  if (close == npos) return {RegionKind::string_literal, at, s.size(), paren + 1, s.size(), false};
  return {RegionKind::string_literal, at, close + terminator.size(), paren + 1, close, true};
}

// The string or character literal whose opening quote is at `at`. A backslash
// escapes the next character; a backslash-newline (CR LF too) is spliced away and
// continues the literal; any other newline ends it, unclosed.
SourceRegion quoted_literal(std::string_view s, std::size_t at) {
  const char quote = s[at];
  const auto kind = quote == '"' ? RegionKind::string_literal : RegionKind::char_literal;
  std::size_t end = at + 1;
  while (end < s.size() && s[end] != quote && s[end] != '\n') {
    if (s[end] != '\\' || end + 1 >= s.size()) {
      ++end;
    } else {
      const bool crlf = s[end + 1] == '\r' && end + 2 < s.size() && s[end + 2] == '\n';
      end += crlf ? 3 : 2;
    }
  }
  if (end < s.size() && s[end] == quote) return {kind, at, end + 1, at + 1, end, true};
  return {kind, at, end, at + 1, end, false};
}

// Whether `text` ends with `suffix` once trailing blanks are dropped.
bool ends_with_token(std::string_view text, std::string_view suffix) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text.ends_with(suffix);
}

// The end of the header name <...> whose '<' is at `at`, when the line before it is an
// #include, #include_next or #import directive or ends in __has_include( : a quote in
// a header name opens no literal. nullopt when `at` starts no header name.
std::optional<std::size_t> header_name_end(std::string_view s, std::size_t at) {
  const std::size_t line = at == 0 ? 0 : s.rfind('\n', at - 1) + 1;  // npos + 1 == 0
  std::string_view before = s.substr(line, at - line);
  const bool has_include =
      ends_with_token(before, "__has_include(") || ends_with_token(before, "__has_include_next(");
  const auto first = before.find_first_not_of(" \t");
  bool directive = false;
  if (first != npos && before[first] == '#') {
    std::string_view rest = before.substr(first + 1);
    rest.remove_prefix(std::min(rest.find_first_not_of(" \t"), rest.size()));
    for (std::string_view name : {"include_next", "include", "import"})
      if (rest.starts_with(name)) {
        rest.remove_prefix(name.size());
        directive = rest.find_first_not_of(" \t") == npos;
        break;
      }
  }
  if (!has_include && !directive) return std::nullopt;
  const auto close = s.find_first_of(">\n", at + 1);
  if (close == npos || s[close] != '>') return std::nullopt;
  return close + 1;
}

// The comment or literal that starts at `i`, if one does; `word` is the run before it.
std::optional<SourceRegion> region_at(std::string_view s, std::size_t i, std::string_view word) {
  const char c = s[i];
  const char next = i + 1 < s.size() ? s[i + 1] : '\0';
  if (c == '/' && next == '/') return line_comment(s, i);
  if (c == '/' && next == '*') return block_comment(s, i);
  if (c == '"' && raw_prefix(word)) return raw_string(s, i);
  if (c == '"' || c == '\'') return quoted_literal(s, i);
  return std::nullopt;
}

}  // namespace

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::size_t number_end(std::string_view source, std::size_t begin) {
  std::size_t i = begin + 1;
  while (i < source.size() && continues_number(source, i)) ++i;
  return i;
}

std::vector<SourceRegion> lex_regions(std::string_view s) {
  std::vector<SourceRegion> regions;
  std::size_t code_begin = 0;
  std::size_t word_begin = 0;
  Word word = Word::none;
  for (std::size_t i = 0; i < s.size();) {
    if (word == Word::number && continues_number(s, i)) {
      ++i;
      continue;
    }
    const auto identifier = word == Word::identifier ? s.substr(word_begin, i - word_begin) : "";
    if (const auto region = region_at(s, i, identifier)) {
      if (code_begin < i) regions.push_back(code(code_begin, i));
      regions.push_back(*region);
      i = code_begin = region->end;
      word = Word::none;
      continue;
    }
    const char c = s[i];
    if (c == '<') {
      if (const auto end = header_name_end(s, i)) {
        i = *end;
        word = Word::none;
        continue;
      }
    }
    if (is_identifier_char(c) && word == Word::none) {
      word = digit(c) ? Word::number : Word::identifier;
      word_begin = i;
    } else if (!is_identifier_char(c)) {
      word = c == '.' && i + 1 < s.size() && digit(s[i + 1]) ? Word::number : Word::none;  // .5
    }
    ++i;
  }
  if (code_begin < s.size()) regions.push_back(code(code_begin, s.size()));
  return regions;
}

std::string blank_source(std::string_view source, Blank what) {
  std::string out(source);
  for (const SourceRegion& r : lex_regions(source)) {
    const bool literal = r.kind == RegionKind::string_literal || r.kind == RegionKind::char_literal;
    if (r.kind == RegionKind::code || (literal && what == Blank::comments)) continue;
    // A literal keeps its quotes: the opening one, and the closing one when there is one.
    std::size_t from = literal ? r.begin + 1 : r.begin;
    const std::size_t to = literal && r.closed ? r.end - 1 : r.end;
    for (; from < to; ++from)
      if (out[from] != '\n') out[from] = ' ';
  }
  return out;
}

}  // namespace kblaster
