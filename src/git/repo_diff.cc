// GitRepo::changed_paths: a tree-to-tree diff with rename detection.
#include <algorithm>

#include "git/commit_tree.h"
#include "git/repo.h"

namespace kblaster {
namespace {

PathChange to_change(const git_diff_delta& d) {
  switch (d.status) {
    case GIT_DELTA_ADDED:
      return {PathChange::Kind::added, "", d.new_file.path};
    case GIT_DELTA_DELETED:
      return {PathChange::Kind::deleted, d.old_file.path, ""};
    case GIT_DELTA_RENAMED:
      return {PathChange::Kind::renamed, d.old_file.path, d.new_file.path};
    default:  // modified, or a type change (file <-> symlink)
      return {PathChange::Kind::modified, d.old_file.path, d.new_file.path};
  }
}

const std::string& sort_key(const PathChange& c) {
  return c.new_path.empty() ? c.old_path : c.new_path;
}

}  // namespace

const char* path_change_kind_name(PathChange::Kind k) {
  switch (k) {
    case PathChange::Kind::added:
      return "added";
    case PathChange::Kind::deleted:
      return "deleted";
    case PathChange::Kind::modified:
      return "modified";
    case PathChange::Kind::renamed:
      return "renamed";
  }
  return "modified";
}

Result<std::vector<PathChange>> GitRepo::changed_paths(const CommitId& base,
                                                       const CommitId& head) const {
  // Diffing the kernel repository's subtrees keeps paths relative to it and
  // leaves out the rest of the git work tree. A missing subtree diffs as empty.
  auto old_tree = commit_subtree(repo_.get(), base, prefix_);
  if (!old_tree) return old_tree.error();
  auto new_tree = commit_subtree(repo_.get(), head, prefix_);
  if (!new_tree) return new_tree.error();
  DiffPtr diff;
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  KB_GIT_CALL(
      git_diff_tree_to_tree(out(diff), repo_.get(), old_tree->get(), new_tree->get(), &options));
  git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;
  find.flags = GIT_DIFF_FIND_RENAMES;
  KB_GIT_CALL(git_diff_find_similar(diff.get(), &find));

  std::vector<PathChange> changes;
  const std::size_t n = git_diff_num_deltas(diff.get());
  changes.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    changes.push_back(to_change(*git_diff_get_delta(diff.get(), i)));
  std::sort(changes.begin(), changes.end(),
            [](const PathChange& x, const PathChange& y) { return sort_key(x) < sort_key(y); });
  return changes;
}

}  // namespace kblaster
