#include "core/path_glob.h"

#include <algorithm>
#include <vector>

namespace kblaster {
namespace {

// One step of a pattern, read left to right: "**/" is `dirs` wherever it starts,
// "**" that ends the pattern is `rest`, any other '*' is `star`.
enum class Step { literal, any_char, star, dirs, rest };

struct Token {
  Step step;
  char c = 0;  // for `literal`
};

std::vector<Token> tokenize(std::string_view pattern) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < pattern.size();) {
    const std::string_view tail = pattern.substr(i);
    if (tail.substr(0, 3) == "**/") {
      out.push_back({Step::dirs});
      i += 3;
    } else if (tail == "**") {
      out.push_back({Step::rest});
      i += 2;
    } else if (tail.front() == '*') {
      out.push_back({Step::star});
      ++i;
    } else if (tail.front() == '?') {
      out.push_back({Step::any_char});
      ++i;
    } else {
      out.push_back({Step::literal, tail.front()});
      ++i;
    }
  }
  return out;
}

}  // namespace

// An NFA run over the tokens: `at[i]` means the path read so far can leave the
// pattern at token i; `inside[i]` that it is within a directory name of dirs token i
// ("**/" is ([^/]*/)*). Each path character updates every state once: O(tokens × path).
bool glob_match(std::string_view pattern, std::string_view path) {
  const std::vector<Token> tokens = tokenize(pattern);
  const std::size_t n = tokens.size();
  std::vector<char> at(n + 1, 0), inside(n, 0), next_at(n + 1), next_inside(n);
  // Adds the states reachable without reading: star and dirs may match nothing.
  // True when the `rest` token is reached, which matches whatever follows.
  auto close = [&](std::vector<char>& states) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!states[i]) continue;
      if (tokens[i].step == Step::rest) return true;
      if (tokens[i].step == Step::star || tokens[i].step == Step::dirs) states[i + 1] = 1;
    }
    return false;
  };
  at[0] = 1;
  if (close(at)) return true;
  for (const char c : path) {
    std::fill(next_at.begin(), next_at.end(), 0);
    std::fill(next_inside.begin(), next_inside.end(), 0);
    const bool slash = c == '/';
    bool alive = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (inside[i]) (slash ? next_at[i] : next_inside[i]) = 1;
      if (!at[i]) continue;
      switch (tokens[i].step) {
        case Step::literal:
          if (c == tokens[i].c) next_at[i + 1] = 1;
          break;
        case Step::any_char:
          if (!slash) next_at[i + 1] = 1;
          break;
        case Step::star:
          if (!slash) next_at[i] = 1;
          break;
        case Step::dirs:
          (slash ? next_at[i] : next_inside[i]) = 1;
          break;
        case Step::rest:
          return true;
      }
    }
    at.swap(next_at);
    inside.swap(next_inside);
    if (close(at)) return true;
    for (std::size_t i = 0; i <= n && !alive; ++i) alive = at[i] || (i < n && inside[i]);
    if (!alive) return false;
  }
  return at[n] != 0;
}

}  // namespace kblaster
