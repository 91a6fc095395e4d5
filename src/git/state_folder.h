// kblaster's own state folder in a kernel repository, `.kblaster`: the trees `check`
// materialises, the compile cache, the ceilings, the KB. What is there is trusted (a tree with
// its marker is reused, a cached object is loaded), so a change under check may not put files
// there: its head would otherwise plant the "base" that it is judged against.
#pragma once

#include "core/status.h"
#include "git/repo.h"

namespace kblaster {

// The state folder's name, at the kernel repository's root.
inline constexpr const char* kStateFolder = ".kblaster";

// Ok when `head` tracks `.kblaster` exactly as `base` does: neither tracks it, as usual, or both
// the same tree (a repository that commits its KB). Error::usage naming the revisions otherwise.
// `base` is null for a push that created its branch: head may then not track it at all.
Status check_state_folder_untouched(const Repo& repo, const CommitId* base, const CommitId& head);

}  // namespace kblaster
