// Builds real git repositories commit by commit with libgit2, for tests and the
// git benchmark. Files live in memory and each commit writes the whole tree,
// so no work tree or index is involved. Throws std::runtime_error on failure.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "git/libgit2.h"

namespace kblaster::testing {

class RepoBuilder {
 public:
  // `git init` at `dir` (created if missing); the current branch is "main".
  explicit RepoBuilder(const std::filesystem::path& dir);
  RepoBuilder(const RepoBuilder&) = delete;  // owns the repository handle
  RepoBuilder& operator=(const RepoBuilder&) = delete;

  // Edits to the files of the next commit.
  void write(const std::string& path, const std::string& text);
  void remove(const std::string& path);
  void rename(const std::string& from, const std::string& to);

  // Commits the files onto the current branch (its tip is the parent); returns the id.
  std::string commit(const std::string& message);
  // Commits the files with two parents, the current tip and `other`: a merge commit.
  std::string merge(const std::string& other, const std::string& message);
  // Creates branch `name` at commit `at` and switches to it, files and all.
  void branch(const std::string& name, const std::string& at);
  // Starts branch `name` with no commits and no files; its first commit is a root.
  void orphan(const std::string& name);
  // Switches to branch `name`, taking the files of its tip.
  void checkout(const std::string& name);
  std::string tip() const { return tips_.at(branch_); }

  // Makes the clone shallow at `boundary` (.git/shallow) and deletes the loose
  // objects of `lost` commits, as a depth-limited fetch would never have had them.
  void make_shallow(const std::string& boundary, const std::vector<std::string>& lost);

 private:
  using Files = std::map<std::string, std::string>;
  git_oid write_tree(const Files& files, const std::string& dir);
  std::string commit_with(const std::string& message, const std::vector<std::string>& parents);

  std::filesystem::path dir_;
  RepositoryPtr repo_;
  Files files_;
  std::map<std::string, Files> snapshots_;   // commit id -> its files
  std::map<std::string, std::string> tips_;  // branch -> commit id
  std::string branch_ = "main";
  int clock_ = 0;  // seconds after a fixed epoch, one per commit
};

// Crafted objects written straight to the object database of the repository at `dir`,
// unchecked: the trees a hostile commit may hold (an entry named `..`, entries out of order, a
// name twice), which libgit2's builders refuse to write. Ids are hex. Throws as RepoBuilder does.
class RawObjects {
 public:
  struct Entry {
    std::string mode;  // "100644", "40000", "120000", "160000"
    std::string name;
    std::string id;
  };
  explicit RawObjects(const std::filesystem::path& dir);
  std::string blob(const std::string& text);
  // A tree with `entries` in the order given.
  std::string tree(const std::vector<Entry>& entries);
  // A root commit of `tree`.
  std::string commit(const std::string& tree, const std::string& message);
  // Adds `path` with `text` to the work tree's index, as a checkout would have.
  void stage(const std::string& path, const std::string& text);

 private:
  std::string write(git_object_t type, const std::string& bytes);
  RepositoryPtr repo_;
};

}  // namespace kblaster::testing
