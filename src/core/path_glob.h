// Glob matching on '/'-separated relative paths: `*` and `?` stay within one
// path component, `**/` matches any number of whole directories.
#pragma once

#include <string_view>

namespace kblaster {

bool glob_match(std::string_view pattern, std::string_view path);

}  // namespace kblaster
