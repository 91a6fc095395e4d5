#include "core/path_glob.h"

namespace kblaster {

bool glob_match(std::string_view pattern, std::string_view path) {
  if (pattern.substr(0, 3) == "**/") {
    // Zero directories, or skip one component and try again.
    if (glob_match(pattern.substr(3), path)) return true;
    auto slash = path.find('/');
    return slash != std::string_view::npos && glob_match(pattern, path.substr(slash + 1));
  }
  if (pattern == "**") return true;
  if (pattern.empty()) return path.empty();
  if (pattern.front() == '*') {
    for (std::size_t i = 0; i <= path.size(); ++i) {
      if (glob_match(pattern.substr(1), path.substr(i))) return true;
      if (i < path.size() && path[i] == '/') break;
    }
    return false;
  }
  if (path.empty()) return false;
  if (pattern.front() == '?')
    return path.front() != '/' && glob_match(pattern.substr(1), path.substr(1));
  if (pattern.front() == path.front()) return glob_match(pattern.substr(1), path.substr(1));
  return false;
}

}  // namespace kblaster
