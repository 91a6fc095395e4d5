// Writing the files of one revision to disk, so the candidate builder (which
// compiles from a directory) can build a commit without touching the work tree.
#pragma once

#include <filesystem>

#include "core/source_tree.h"
#include "core/status.h"
#include "git/repo.h"

namespace kblaster {

// Writes every file of `tree` (the kernel repository at `commit`) under
// `trees_dir`/<commit hex> and returns that directory. A tree already written
// completely (its marker `trees_dir`/<hex>.complete exists) is reused as is.
// The files go to a temporary directory first, renamed into place when all are
// written, so a crash never leaves a partial tree that counts as complete.
// Error::io when a file cannot be read from the tree or written; Error::usage when the tree
// has an entry git refuses (SourceTree::unsafe_entry) or lists a path that leaves it. A marker
// or tree that is a symbolic link is not reused, and the marker is never written through one.
Result<std::filesystem::path> materialize_tree(const SourceTree& tree, const CommitId& commit,
                                               const std::filesystem::path& trees_dir);

}  // namespace kblaster
