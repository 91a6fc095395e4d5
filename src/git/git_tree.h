// A SourceTree over the files of one git tree object (a commit's tree, or the
// subtree of a kernel repository inside it), read from the object database.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/source_tree.h"
#include "git/libgit2.h"

namespace kblaster {

// Regular files are blobs (executable or not); symlinks and submodules are not
// files. The path index is built on first use. Not thread-safe.
class GitTree : public SourceTree {
 public:
  // `tree` may be null: an empty tree (the directory does not exist at that commit).
  // `label` is what describe() returns, e.g. the commit's short id.
  GitTree(std::shared_ptr<git_repository> repo, TreePtr tree, std::string label);

  // nullopt also when the blob cannot be read (e.g. missing from a partial clone).
  std::optional<std::string> read(const std::string& path) const override;
  bool is_file(const std::string& path) const override;
  bool is_directory(const std::string& path) const override;
  std::vector<std::string> list_files() const override;
  std::string describe() const override { return label_; }

  // The blob id of a file, for callers that cache by content; nullopt if no such file.
  std::optional<git_oid> blob_id(const std::string& path) const;

  // The first entry whose name git itself refuses to check out ("", ".", "..", ".git" in any
  // case, one holding a '/', or a name a folder already holds). Such entries and everything under
  // them are left out of the tree: a crafted commit cannot make a file's path climb out of the
  // directory it is written to.
  std::optional<std::string> unsafe_entry() const override;

 private:
  struct Index {
    std::map<std::string, git_oid> files;  // repo-relative path -> blob
    std::set<std::string> directories;
    std::optional<std::string> unsafe;  // the first entry left out for its name
  };
  const Index& index() const;
  const git_oid* find(const std::string& path) const;

  std::shared_ptr<git_repository> repo_;  // declared first: outlives tree_
  TreePtr tree_;
  std::string label_;
  mutable std::optional<Index> index_;
};

}  // namespace kblaster
