#include "core/definition_line.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "core/source_regions.h"

namespace kblaster {
namespace {

// `source` with every comment and literal replaced by spaces (newlines kept), so that
// offsets and line numbers stay those of the original.
std::string code_only(std::string_view source) {
  std::string masked(source);
  for (const SourceRegion& r : lex_regions(source)) {
    if (r.kind == RegionKind::code) continue;
    for (std::size_t i = r.begin; i < r.end; ++i)
      if (masked[i] != '\n') masked[i] = ' ';
  }
  return masked;
}

std::size_t skip_space(std::string_view text, std::size_t at) {
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  return at;
}

// The offset after the ")" that closes the "(" at `open`; npos when unbalanced.
std::size_t after_parentheses(std::string_view text, std::size_t open) {
  std::size_t depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth == 0) return i + 1;
  }
  return std::string_view::npos;
}

std::size_t line_of(std::string_view text, std::size_t offset) {
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
}

}  // namespace

std::size_t definition_line(std::string_view source, std::string_view function) {
  const std::size_t colons = function.rfind("::");
  const std::string_view name =
      colons == std::string_view::npos ? function : function.substr(colons + 2);
  if (name.empty()) return 0;
  const std::string code = code_only(source);
  const std::string_view text = code;
  std::size_t first_mention = 0;
  for (std::size_t at = text.find(name); at != std::string_view::npos;
       at = text.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if ((at > 0 && is_identifier_char(text[at - 1])) ||
        (end < text.size() && is_identifier_char(text[end])))
      continue;
    const std::size_t open = skip_space(text, end);
    if (open >= text.size() || text[open] != '(') continue;
    if (first_mention == 0) first_mention = line_of(text, at);
    const std::size_t close = after_parentheses(text, open);
    if (close == std::string_view::npos) continue;
    const std::size_t body = skip_space(text, close);
    if (body < text.size() && text[body] == '{') return line_of(text, at);
  }
  return first_mention;
}

}  // namespace kblaster
