// Glob matching on '/'-separated relative paths: `*` and `?` stay within one
// path component, `**/` matches any number of whole directories, and `**` at the
// end matches everything that follows.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

// A pattern read once, to match many paths (a repository's every file, say).
class PathGlob {
 public:
  explicit PathGlob(std::string_view pattern);
  // True when the pattern matches the whole of `path`. Linear in each: at most
  // O(len(pattern) × len(path)) steps, without recursion or backtracking; a path that does
  // not end with the pattern's closing literal text is refused at once.
  bool matches(std::string_view path) const;

 private:
  // One step of a pattern, read left to right: "**/" is `dirs` wherever it starts,
  // "**" that ends the pattern is `rest`, any other '*' is `star`.
  enum class Step { literal, any_char, star, dirs, rest };
  struct Token {
    Step step;
    char c = 0;  // for `literal`
  };
  std::vector<Token> tokens_;
  std::string suffix_;  // the literal characters the pattern ends with, after its last wildcard
};

// PathGlob(pattern).matches(path).
bool glob_match(std::string_view pattern, std::string_view path);

}  // namespace kblaster
