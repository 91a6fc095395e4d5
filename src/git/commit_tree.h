// Internal to the git layer: commits by id, the tree of a kernel repository
// inside one, and the error for a revision this clone lacks.
#pragma once

#include <string>

#include "git/libgit2.h"
#include "git/repo.h"

namespace kblaster {

// The error for `what` (e.g. "revision `abc`") that `repo` lacks: Error::environment
// naming the fix when the clone is shallow, else Error::usage "`what` `detail`".
Error missing_from_clone(git_repository* repo, const std::string& what, const std::string& detail);

// Whether a failed call's `rc` means an object is absent: GIT_ENOTFOUND, or in a
// shallow clone an object-database miss met while walking past its boundary.
bool is_missing_object(git_repository* repo, int rc);

Result<git_oid> parse_commit_id(const CommitId& id);

// The tree at `prefix` ("" = the root) in commit `id`; a null TreePtr when that
// commit has no such directory.
Result<TreePtr> commit_subtree(git_repository* repo, const CommitId& id, const std::string& prefix);

}  // namespace kblaster
