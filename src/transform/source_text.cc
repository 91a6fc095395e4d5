#include "transform/source_text.h"

#include <algorithm>
#include <cctype>

#include "core/source_regions.h"

namespace kblaster {

std::string mask_source(std::string_view source) {
  return blank_source(source, Blank::comments_and_literals);
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

bool is_integer_literal(std::string_view text) {
  return !text.empty() && std::isdigit(static_cast<unsigned char>(text[0])) &&
         std::all_of(text.begin(), text.end(),
                     [](char c) { return is_identifier_char(c) || c == '\''; });
}

bool is_literal_token(std::string_view masked, Span span) {
  const std::size_t b = span.begin;
  const bool starts = b == 0 || !(is_identifier_char(masked[b - 1]) || masked[b - 1] == '.');
  // The exponent of a number before it (`1e-16`, `0x1p+4`): `<digit or .>e-` or `p+`.
  const bool exponent =
      b >= 3 && (masked[b - 1] == '+' || masked[b - 1] == '-') &&
      std::string_view("eEpP").find(masked[b - 2]) != std::string_view::npos &&
      (std::isdigit(static_cast<unsigned char>(masked[b - 3])) || masked[b - 3] == '.');
  return starts && !exponent && span.end <= masked.size() &&
         number_end(masked, span.begin) == span.end && is_integer_literal(span.of(masked));
}

std::optional<EnclosingFunction> enclosing_function(std::string_view masked, std::size_t at) {
  std::vector<std::size_t> opens;
  for (std::size_t i = 0; i < at; ++i) {
    if (masked[i] == '{') opens.push_back(i);
    if (masked[i] == '}' && !opens.empty()) opens.pop_back();
  }
  for (const auto open : opens) {
    std::size_t end = open;  // back over whitespace and trailing const/noexcept/override
    for (;;) {
      while (end > 0 && std::isspace(static_cast<unsigned char>(masked[end - 1]))) --end;
      std::size_t word = end;
      while (word > 0 && is_identifier_char(masked[word - 1])) --word;
      const auto w = masked.substr(word, end - word);
      if (w != "const" && w != "noexcept" && w != "override" && w != "final") break;
      end = word;
    }
    if (end == 0 || masked[end - 1] != ')') continue;
    std::size_t paren = end - 1;  // back to the '(' that opens the parameter list
    for (int depth = 0; paren > 0; --paren) {
      if (masked[paren] == ')') ++depth;
      if (masked[paren] == '(' && --depth == 0) break;
    }
    std::size_t name_end = paren;
    while (name_end > 0 && std::isspace(static_cast<unsigned char>(masked[name_end - 1])))
      --name_end;
    std::size_t name_begin = name_end;
    while (name_begin > 0 && is_identifier_char(masked[name_begin - 1])) --name_begin;
    const auto close = find_closing(masked, open);
    return EnclosingFunction{name_begin < name_end
                                 ? std::string(masked.substr(name_begin, name_end - name_begin))
                                 : "a lambda",
                             {open + 1, close == std::string_view::npos ? masked.size() : close}};
  }
  return std::nullopt;
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
