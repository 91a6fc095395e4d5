#include "git/commit_tree.h"

namespace kblaster {

Error missing_from_clone(git_repository* repo, const std::string& what, const std::string& detail) {
  git_error_clear();
  if (git_repository_is_shallow(repo) == 1)
    return Error::environment(what +
                              " is not in this clone (it is shallow); fetch full history, e.g. "
                              "`fetch-depth: 0` in actions/checkout, or `git fetch --unshallow`");
  return Error::usage(what + " " + detail);
}

bool is_missing_object(git_repository* repo, int rc) {
  if (rc == GIT_ENOTFOUND) return true;
  const git_error* e = git_error_last();
  return rc < 0 && e && e->klass == GIT_ERROR_ODB && git_repository_is_shallow(repo) == 1;
}

Result<git_oid> parse_commit_id(const CommitId& id) {
  git_oid oid;
  KB_GIT_CALL(git_oid_fromstr(&oid, id.hex.c_str()));
  return oid;
}

Result<TreePtr> commit_subtree(git_repository* repo, const CommitId& id,
                               const std::string& prefix) {
  auto oid = parse_commit_id(id);
  if (!oid) return oid.error();
  CommitPtr commit;
  if (const int rc = git_commit_lookup(out(commit), repo, &*oid); is_missing_object(repo, rc))
    return missing_from_clone(repo, "commit " + id.hex, "is not in this repository");
  else if (rc < 0)
    return git_call_error("git_commit_lookup", rc, __FILE__, __LINE__);
  TreePtr root;
  KB_GIT_CALL(git_commit_tree(out(root), commit.get()));
  if (prefix.empty()) return root;
  TreeEntryPtr entry;
  if (const int rc = git_tree_entry_bypath(out(entry), root.get(), prefix.c_str());
      rc == GIT_ENOTFOUND) {
    git_error_clear();
    return TreePtr();
  } else if (rc < 0) {
    return git_call_error("git_tree_entry_bypath", rc, __FILE__, __LINE__);
  }
  if (git_tree_entry_type(entry.get()) != GIT_OBJECT_TREE) return TreePtr();
  TreePtr tree;
  KB_GIT_CALL(git_tree_lookup(out(tree), repo, git_tree_entry_id(entry.get())));
  return tree;
}

}  // namespace kblaster
