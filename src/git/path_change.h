// One file that differs between two revisions, as a diff with rename detection
// reports it. Paths are relative to the kernel repository root, '/'-separated.
#pragma once

#include <string>

namespace kblaster {

struct PathChange {
  enum class Kind { added, deleted, modified, renamed };
  Kind kind = Kind::modified;
  std::string old_path;  // empty for `added`
  std::string new_path;  // empty for `deleted`
};

// "added", "deleted", "modified" or "renamed".
const char* path_change_kind_name(PathChange::Kind k);

}  // namespace kblaster
