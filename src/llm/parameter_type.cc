#include "llm/parameter_type.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "core/source_regions.h"

namespace kblaster {
namespace {

constexpr std::array<std::string_view, 3> kRestrict{"__restrict__", "__restrict", "restrict"};
// Words that make a type by themselves, so a last word among them is never a name.
constexpr std::array<std::string_view, 14> kBuiltinTypes{
    "int",  "char",     "short",  "long",    "float",   "double",   "bool",
    "void", "unsigned", "signed", "wchar_t", "char8_t", "char16_t", "char32_t"};
// Words that qualify a type but are not one.
constexpr std::array<std::string_view, 7> kQualifiers{"const", "volatile", "struct",  "class",
                                                      "enum",  "union",    "typename"};

template <std::size_t N>
bool among(const std::array<std::string_view, N>& words, std::string_view word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

bool is_word(std::string_view token) { return !token.empty() && is_identifier_char(token[0]); }

// The declaration before its default argument: the first '=' outside brackets.
std::string_view without_default(std::string_view d) {
  int depth = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const char c = d[i];
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
    if (c == '=' && depth == 0) return d.substr(0, i);
  }
  return d;
}

// Words, "::", "&&" and single punctuation characters; restrict qualifiers left out.
std::vector<std::string> tokens_of(std::string_view d) {
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < d.size();) {
    if (std::isspace(static_cast<unsigned char>(d[i]))) {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    if (is_identifier_char(d[i]))
      while (end < d.size() && is_identifier_char(d[end])) ++end;
    else if ((d[i] == ':' || d[i] == '&') && end < d.size() && d[end] == d[i])
      ++end;
    const auto token = d.substr(i, end - i);
    if (!among(kRestrict, token)) tokens.emplace_back(token);
    i = end;
  }
  return tokens;
}

// The index of the parameter's name among `t`, or t.size() when it has none.
std::size_t name_index(const std::vector<std::string>& t) {
  const auto bracket = std::find(t.begin(), t.end(), "[");  // float a[16]
  if (bracket != t.end() && bracket != t.begin() && is_word(*(bracket - 1)))
    return static_cast<std::size_t>(bracket - 1 - t.begin());
  for (std::size_t i = 0; i + 3 < t.size(); ++i)  // R (*name)(...)
    if (t[i] == "(" && (t[i + 1] == "*" || t[i + 1] == "&") && is_word(t[i + 2]) && t[i + 3] == ")")
      return i + 2;
  if (t.size() < 2 || !is_word(t.back()) || among(kBuiltinTypes, t.back()) ||
      among(kQualifiers, t.back()))
    return t.size();
  const auto& before = t[t.size() - 2];
  if (before == "::") return t.size();        // ns::type
  if (!is_word(before)) return t.size() - 1;  // T* name, T& name, vector<T> name
  const bool only_qualifiers = std::all_of(
      t.begin(), t.end() - 1, [](const std::string& w) { return among(kQualifiers, w); });
  return only_qualifiers ? t.size() : t.size() - 1;  // const size_t | unsigned n
}

}  // namespace

std::string parameter_type(std::string_view declaration) {
  auto tokens = tokens_of(without_default(declaration));
  const auto name = name_index(tokens);
  if (name < tokens.size()) tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(name));
  if (tokens.size() >= 2 && tokens[1] == "const" && is_word(tokens[0]) && tokens[0] != "const")
    std::swap(tokens[0], tokens[1]);  // float const* -> const float*
  std::string type;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0 && is_word(tokens[i - 1]) && is_word(tokens[i])) type += ' ';
    type += tokens[i];
  }
  return type;
}

}  // namespace kblaster
