#include "core/reference_placement.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/source_regions.h"

namespace kblaster {
namespace {

// Bounds that keep a hostile file from making the search quadratic: the mentions of the name
// looked at, and the length of a trailing return type.
constexpr int kMaxMentions = 10'000;
constexpr std::size_t kMaxTrailingReturn = 1024;
constexpr std::size_t kMaxParameterList = 4096;  // also of an attribute or a noexcept(…)

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])) != 0) ++i;
  return i;
}

// The offset after the bracket that closes the one at `open`, or npos when it is not closed
// within `limit` characters.
std::size_t after_matching(std::string_view s, std::size_t open, char o, char c,
                           std::size_t limit = std::string_view::npos) {
  int depth = 0;
  const std::size_t end =
      limit == std::string_view::npos ? s.size() : std::min(s.size(), open + limit);
  for (std::size_t i = open; i < end; ++i) {
    if (s[i] == o) ++depth;
    if (s[i] == c && --depth == 0) return i + 1;
  }
  return std::string_view::npos;
}

// From just after a parameter list: the offset of the body's `{`, or npos when what follows
// is no body (a call's `;` or `)`, a declaration's `;`).
std::size_t body_open(std::string_view s, std::size_t i) {
  for (;;) {
    i = skip_space(s, i);
    if (i >= s.size()) return std::string_view::npos;
    if (s[i] == '{') return i;
    if (s.substr(i, 2) == "[[") {  // an attribute
      i = after_matching(s, i, '[', ']', kMaxParameterList);
      if (i == std::string_view::npos) return i;
      continue;
    }
    if (s.substr(i, 2) == "->") {  // a trailing return type: up to the body, within a bound
      const std::size_t limit = std::min(s.size(), i + kMaxTrailingReturn);
      for (i += 2; i < limit && s[i] != '{' && s[i] != ';';) ++i;
      if (i == limit) return std::string_view::npos;
      continue;
    }
    std::size_t end = i;
    while (end < s.size() && identifier_char(s[end])) ++end;
    const std::string_view word = s.substr(i, end - i);
    if (word == "const" || word == "noexcept" || word == "override" || word == "final") {
      i = skip_space(s, end);
      if (word == "noexcept" && i < s.size() && s[i] == '(')
        i = after_matching(s, i, '(', ')', kMaxParameterList);
      if (i == std::string_view::npos) return i;
      continue;
    }
    return std::string_view::npos;
  }
}

}  // namespace

std::optional<std::string> function_body(std::string_view source, std::string_view function) {
  const std::size_t colons = function.rfind("::");
  const std::string_view name =
      colons == std::string_view::npos ? function : function.substr(colons + 2);
  if (name.empty()) return std::nullopt;
  const std::string text = blank_source(source, Blank::comments_and_literals);
  const std::string_view s(text);
  int mentions = 0;
  for (std::size_t at = s.find(name); at != std::string_view::npos && ++mentions <= kMaxMentions;
       at = s.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if ((at > 0 && identifier_char(s[at - 1])) || (end < s.size() && identifier_char(s[end])))
      continue;
    if (at > 0 && (s[at - 1] == '.' || (at > 1 && s.substr(at - 2, 2) == "->"))) continue;
    const std::size_t paren = skip_space(s, end);
    if (paren >= s.size() || s[paren] != '(') continue;
    const std::size_t close = after_matching(s, paren, '(', ')', kMaxParameterList);
    if (close == std::string_view::npos) continue;
    const std::size_t open = body_open(s, close);
    if (open == std::string_view::npos) continue;
    const std::size_t after = after_matching(s, open, '{', '}');
    if (after == std::string_view::npos) return std::nullopt;
    return std::string(s.substr(open + 1, after - open - 2));
  }
  return std::nullopt;
}

std::string gpu_work_in(std::string_view body) {
  if (body.find("<<<") != std::string_view::npos) return "it launches a kernel (<<<)";
  static constexpr std::array<std::string_view, 11> kApis = {
      "cuda",     "cublas", "cudnn",    "cufft",     "curand",  "cusparse",
      "cusolver", "cub::",  "thrust::", "cutlass::", "nvcuda::"};
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (i > 0 && (identifier_char(body[i - 1]) || body[i - 1] == ':')) continue;
    for (const std::string_view api : kApis) {
      if (body.substr(i, api.size()) != api) continue;
      std::size_t end = i + api.size();
      while (end < body.size() && (identifier_char(body[end]) || body[end] == ':')) ++end;
      return "it calls " + std::string(body.substr(i, end - i));
    }
  }
  return "";
}

}  // namespace kblaster
