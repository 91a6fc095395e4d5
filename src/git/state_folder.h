// kblaster's own state folder in a kernel repository, `.kblaster`. Two of its folders hold what
// `check` trusts without checking again: `trees/` (a tree marked complete is reused) and
// `cache/` (a cached object is loaded as built; the ceilings are read). A change under check
// that tracks either would plant the "base" it is judged against. The rest (a committed KB, say)
// check does not read.
#pragma once

#include <filesystem>

#include "core/status.h"
#include "git/repo.h"

namespace kblaster {

// The state folder's name, at the kernel repository's root.
inline constexpr const char* kStateFolder = ".kblaster";

// Ok when `head` tracks nothing check trusts: no `.kblaster` that is not a folder (a link or a
// submodule would send check's writes elsewhere), and nothing under `.kblaster/trees` or
// `.kblaster/cache`. Malformed trees (unsorted, a name twice) are read entry by entry, as a
// checkout writes them. Error::usage naming the revision and the path otherwise.
Status check_state_folder_untouched(const Repo& repo, const CommitId& head);

// Ok when the work tree's index tracks nothing under `.kblaster/trees` or `.kblaster/cache`, and
// neither `kernel_repo`/.kblaster nor its trees or cache folder is a symbolic link on disk: on
// GitHub a pull request is checked out as its merge commit, whose tree is not head's, and check
// writes into that checkout. Error::usage naming the path otherwise.
Status check_checkout_state(const Repo& repo, const std::filesystem::path& kernel_repo);

}  // namespace kblaster
