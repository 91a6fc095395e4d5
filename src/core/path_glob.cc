#include "core/path_glob.h"

#include <algorithm>

namespace kblaster {

PathGlob::PathGlob(std::string_view pattern) {
  for (std::size_t i = 0; i < pattern.size();) {
    const std::string_view tail = pattern.substr(i);
    if (tail.substr(0, 3) == "**/") {
      tokens_.push_back({Step::dirs});
      i += 3;
    } else if (tail == "**") {
      tokens_.push_back({Step::rest});
      i += 2;
    } else if (tail.front() == '*') {
      tokens_.push_back({Step::star});
      ++i;
    } else if (tail.front() == '?') {
      tokens_.push_back({Step::any_char});
      ++i;
    } else {
      tokens_.push_back({Step::literal, tail.front()});
      ++i;
    }
  }
  for (auto t = tokens_.rbegin(); t != tokens_.rend() && t->step == Step::literal; ++t)
    suffix_.insert(suffix_.begin(), t->c);
}

// An NFA run over the tokens: `at[i]` means the path read so far can leave the
// pattern at token i; `inside[i]` that it is within a directory name of dirs token i
// ("**/" is ([^/]*/)*). Each path character updates every state once: O(tokens × path).
bool PathGlob::matches(std::string_view path) const {
  if (!path.ends_with(suffix_)) return false;
  const std::vector<Token>& tokens = tokens_;
  const std::size_t n = tokens.size();
  // One buffer for the four state vectors: at, inside, next_at, next_inside.
  std::vector<char> states(4 * n + 2, 0);
  char* at = states.data();
  char* inside = at + n + 1;
  char* next_at = inside + n;
  char* next_inside = next_at + n + 1;
  // Adds the states reachable without reading: star and dirs may match nothing.
  // True when the `rest` token is reached, which matches whatever follows.
  auto close = [&](char* s) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!s[i]) continue;
      if (tokens[i].step == Step::rest) return true;
      if (tokens[i].step == Step::star || tokens[i].step == Step::dirs) s[i + 1] = 1;
    }
    return false;
  };
  at[0] = 1;
  if (close(at)) return true;
  for (const char c : path) {
    std::fill(next_at, next_at + n + 1, 0);
    std::fill(next_inside, next_inside + n, 0);
    const bool slash = c == '/';
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
    std::swap(at, next_at);
    std::swap(inside, next_inside);
    if (close(at)) return true;
    bool alive = false;
    for (std::size_t i = 0; i <= n && !alive; ++i) alive = at[i] || (i < n && inside[i]);
    if (!alive) return false;
  }
  return at[n] != 0;
}

bool glob_match(std::string_view pattern, std::string_view path) {
  return PathGlob(pattern).matches(path);
}

}  // namespace kblaster
