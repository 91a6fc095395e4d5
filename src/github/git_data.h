// A branch read and written through GitHub's git data API, without a clone: its tip's
// files listed, a blob's bytes read, and a commit of whole files made on a branch.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/status.h"
#include "github/github_api.h"

namespace kblaster {

// A file of a tree: its blob and its mode ("100644", "100755").
struct TreeFile {
  std::string sha, mode;
};

// A branch's tip: the commit, its tree, and every file of the tree by path.
struct BranchSnapshot {
  std::string branch, commit, tree;
  std::map<std::string, TreeFile> files;
};

// The repository's default branch (GET /repos/{owner}/{repo}). Errors: the call's, or an
// answer without `default_branch` (Error::remote).
Result<std::string> default_branch(GitHubApi& api);

// `branch`'s tip and its whole tree (ref, commit, then the tree read recursively).
// Errors: a branch that does not exist is Error::usage naming it; a tree GitHub lists
// only in part (truncated) is Error::remote saying so; the calls' errors.
Result<BranchSnapshot> read_branch(GitHubApi& api, const std::string& branch);

// The bytes of blob `sha`. Errors: the call's; an answer that is not base64 is Error::remote.
Result<std::string> read_blob(GitHubApi& api, const std::string& sha);

// A file to write whole at `path`, from the repository's root.
struct FileWrite {
  std::string path, content, mode = "100644";
};

// Commits `files` onto `base`'s tip (blobs sent as base64, a tree on base's tree, a commit
// whose parent is base's commit) and points `branch` at it: created, or moved there by
// force, since the branch is kblaster's own. Returns the new commit's sha. Errors: the
// calls' (Error::remote naming the call, or an answer without the sha it should carry).
Result<std::string> commit_to_branch(GitHubApi& api, const BranchSnapshot& base,
                                     const std::vector<FileWrite>& files,
                                     const std::string& message, const std::string& branch);

}  // namespace kblaster
