// Glob matching on '/'-separated relative paths: `*` and `?` stay within one
// path component, `**/` matches any number of whole directories, and `**` at the
// end matches everything that follows.
#pragma once

#include <string_view>

namespace kblaster {

// True when `pattern` matches the whole of `path`. Linear in each: at most
// O(len(pattern) × len(path)) steps, without recursion or backtracking.
bool glob_match(std::string_view pattern, std::string_view path);

}  // namespace kblaster
