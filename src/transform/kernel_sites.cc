#include "transform/kernel_sites.h"

namespace kblaster {
namespace {

constexpr auto npos = std::string_view::npos;

// Words in a function header that take a parenthesised argument and are no name.
bool is_attribute_word(std::string_view w) {
  return w == "__launch_bounds__" || w == "__attribute__" || w == "__declspec" || w == "alignas" ||
         w == "__maxnreg__" || w == "__cluster_dims__";
}

// Whether a __launch_bounds__ precedes the qualifier in the same declaration.
bool launch_bounds_before(std::string_view masked, std::size_t qualifier) {
  const auto stop = masked.find_last_of(";{}", qualifier);
  const auto from = stop == npos ? 0 : stop + 1;
  return !find_words(masked.substr(from, qualifier - from), "__launch_bounds__").empty();
}

}  // namespace

std::vector<FunctionSite> find_functions(std::string_view masked, std::string_view qualifier) {
  std::vector<FunctionSite> sites;
  for (const auto q : find_words(masked, qualifier)) {
    FunctionSite site;
    site.qualifier = q;
    site.has_launch_bounds = launch_bounds_before(masked, q);
    Span name;
    std::size_t i = q + qualifier.size();
    std::size_t open = npos;
    while ((i = skip_spaces(masked, i)) < masked.size()) {
      const Span word = identifier_at(masked, i);
      if (!word.empty()) {
        i = word.end;
        if (is_attribute_word(word.of(masked))) {
          site.has_launch_bounds |= word.of(masked) == "__launch_bounds__";
          i = skip_spaces(masked, i);
          if (i < masked.size() && masked[i] == '(') i = find_closing(masked, i);
          if (i == npos) break;
          ++i;
        } else {
          name = word;
        }
        continue;
      }
      const char c = masked[i];
      if (c == '(') open = i;
      if (c == '<') {  // template arguments of the return type
        i = find_closing(masked, i);
        if (i == npos) break;
        ++i;
        continue;
      }
      if (c == ':' || c == '*' || c == '&') {
        ++i;
        continue;
      }
      break;  // '(' found, or not a function (';', '=', '[', ...)
    }
    if (open == npos || name.empty()) continue;
    const auto close = find_closing(masked, open);
    if (close == npos) continue;
    site.name = std::string(name.of(masked));
    site.name_begin = name.begin;
    site.params = {open + 1, close};
    std::size_t j = skip_spaces(masked, close + 1);
    while (!identifier_at(masked, j).empty())  // const, noexcept, ...
      j = skip_spaces(masked, identifier_at(masked, j).end);
    if (j < masked.size() && masked[j] == '{') {
      site.body_open = j;
      site.body_close = find_closing(masked, j);
    }
    sites.push_back(std::move(site));
  }
  return sites;
}

std::vector<LaunchSite> find_launches(std::string_view masked) {
  std::vector<LaunchSite> launches;
  for (auto at = masked.find("<<<"); at != npos; at = masked.find("<<<", at + 3)) {
    // The kernel's name: skip back over whitespace and template arguments.
    std::size_t end = at;
    while (end > 0 && (masked[end - 1] == ' ' || masked[end - 1] == '\t')) --end;
    if (end > 0 && masked[end - 1] == '>') {
      int depth = 0;
      while (end > 0) {
        const char c = masked[--end];
        if (c == '>') ++depth;
        if (c == '<' && --depth == 0) break;
      }
      while (end > 0 && (masked[end - 1] == ' ' || masked[end - 1] == '\t')) --end;
    }
    std::size_t begin = end;
    while (begin > 0 && is_identifier_char(masked[begin - 1])) --begin;
    if (begin == end) continue;
    // The configuration: up to the first ">>>" outside brackets.
    int depth = 0;
    std::size_t close = npos;
    for (std::size_t i = at + 3; i + 2 < masked.size(); ++i) {
      const char c = masked[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') --depth;
      if (c == ';' || depth < 0) break;
      if (depth == 0 && masked.compare(i, 3, ">>>") == 0) {
        close = i;
        break;
      }
    }
    if (close == npos) continue;
    launches.push_back({std::string(masked.substr(begin, end - begin)), at,
                        split_top_level(masked, {at + 3, close}, ',')});
  }
  return launches;
}

}  // namespace kblaster
