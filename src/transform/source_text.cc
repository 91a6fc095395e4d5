#include "transform/source_text.h"

#include <algorithm>
#include <cctype>

namespace kblaster {
namespace {

// Whether the quote at `i` is a digit separator (1'000, 0xFF'FF): it follows
// an identifier-like run that starts with a digit.
bool is_digit_separator(std::string_view s, std::size_t i) {
  std::size_t start = i;
  while (start > 0 && is_identifier_char(s[start - 1])) --start;
  return start < i && std::isdigit(static_cast<unsigned char>(s[start]));
}

// Whether the '"' at `i` opens a raw string: R", u8R", LR", uR", UR".
bool is_raw_string(std::string_view s, std::size_t i) {
  if (i == 0 || s[i - 1] != 'R') return false;
  std::size_t start = i - 1;
  while (start > 0 && is_identifier_char(s[start - 1])) --start;
  const auto prefix = s.substr(start, i - 1 - start);
  return prefix.empty() || prefix == "u8" || prefix == "L" || prefix == "u" || prefix == "U";
}

}  // namespace

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string mask_source(std::string_view s) {
  std::string out(s);
  auto blank = [&](std::size_t i) {
    if (out[i] != '\n') out[i] = ' ';
  };
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    const char next = i + 1 < s.size() ? s[i + 1] : '\0';
    if (c == '/' && next == '/') {  // to the line's end; a backslash-newline continues it
      while (i < s.size() && !(s[i] == '\n' && (i == 0 || s[i - 1] != '\\'))) blank(i++);
    } else if (c == '/' && next == '*') {
      const auto close = s.find("*/", i + 2);
      const auto end = close == std::string_view::npos ? s.size() : close + 2;
      while (i < end) blank(i++);
    } else if (c == '"' && is_raw_string(s, i)) {
      const auto paren = s.find('(', i);
      if (paren == std::string_view::npos) return out;
      const std::string terminator =
          std::string(")").append(s.substr(i + 1, paren - i - 1)).append("\"");
      const auto close = s.find(terminator, paren);
      const auto end = close == std::string_view::npos ? s.size() : close + terminator.size() - 1;
      for (++i; i < end; ++i) blank(i);
      ++i;  // the closing quote stays
    } else if ((c == '"' || c == '\'') && !(c == '\'' && is_digit_separator(s, i))) {
      // Ends at the closing quote, or at the line's end for a malformed literal.
      for (++i; i < s.size() && s[i] != c && s[i] != '\n'; ++i) {
        if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] != '\n') blank(i++);
        blank(i);
      }
      ++i;
    } else {
      ++i;
    }
  }
  return out;
}

std::vector<std::size_t> find_words(std::string_view masked, std::string_view word) {
  std::vector<std::size_t> found;
  for (auto pos = masked.find(word); pos != std::string_view::npos;
       pos = masked.find(word, pos + 1)) {
    const bool starts = pos == 0 || !is_identifier_char(masked[pos - 1]);
    const auto end = pos + word.size();
    const bool ends = end >= masked.size() || !is_identifier_char(masked[end]);
    if (starts && ends) found.push_back(pos);
  }
  return found;
}

Span identifier_at(std::string_view masked, std::size_t pos) {
  if (pos >= masked.size() || !is_identifier_char(masked[pos]) ||
      std::isdigit(static_cast<unsigned char>(masked[pos])))
    return {pos, pos};
  std::size_t end = pos;
  while (end < masked.size() && is_identifier_char(masked[end])) ++end;
  return {pos, end};
}

std::size_t skip_spaces(std::string_view masked, std::size_t pos) {
  while (pos < masked.size() && std::isspace(static_cast<unsigned char>(masked[pos]))) ++pos;
  return pos;
}

std::size_t find_closing(std::string_view masked, std::size_t open) {
  const bool angle = masked[open] == '<';
  int depth = 0;
  int angles = 0;
  for (std::size_t i = open; i < masked.size(); ++i) {
    const char c = masked[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) return std::string_view::npos;
      if (depth == 0 && !angle) return i;
    }
    if (angle && depth == 0) {
      if (c == ';' || c == '{') return std::string_view::npos;
      if (c == '<') ++angles;
      if (c == '>' && --angles == 0) return i;
    }
  }
  return std::string_view::npos;
}

Span trim(std::string_view masked, Span r) {
  while (r.begin < r.end && std::isspace(static_cast<unsigned char>(masked[r.begin]))) ++r.begin;
  while (r.end > r.begin && std::isspace(static_cast<unsigned char>(masked[r.end - 1]))) --r.end;
  return r;
}

std::vector<Span> split_top_level(std::string_view masked, Span range, char separator,
                                  AngleBrackets angles) {
  const bool nest = angles == AngleBrackets::nest;
  std::vector<Span> pieces;
  if (trim(masked, range).empty()) return pieces;
  int depth = 0;
  std::size_t start = range.begin;
  for (std::size_t i = range.begin; i < range.end; ++i) {
    const char c = masked[i];
    if (c == '(' || c == '[' || c == '{' || (nest && c == '<')) ++depth;
    if (c == ')' || c == ']' || c == '}' || (nest && c == '>')) --depth;
    if (c == separator && depth == 0) {
      pieces.push_back(trim(masked, {start, i}));
      start = i + 1;
    }
  }
  pieces.push_back(trim(masked, {start, range.end}));
  return pieces;
}

std::string collapse_spaces(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const bool space = std::isspace(static_cast<unsigned char>(c));
    if (!space)
      out += c;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string apply_insertions(std::string_view source, std::vector<Insertion> edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const Insertion& a, const Insertion& b) { return a.offset < b.offset; });
  std::string out;
  std::size_t done = 0;
  for (const auto& e : edits) {
    out.append(source.substr(done, e.offset - done));
    out += e.text;
    done = e.offset;
  }
  out.append(source.substr(done));
  return out;
}

}  // namespace kblaster
