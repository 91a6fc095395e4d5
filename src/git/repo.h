// Read access to the git history of a kernel repository: the narrow interface
// the change set is computed through, and its libgit2 implementation.
#pragma once

#include <compare>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/source_tree.h"
#include "core/status.h"
#include "git/path_change.h"

struct git_repository;  // libgit2's handle; only repo.cc needs its header

namespace kblaster {

// A commit, by its 40 hex digits.
struct CommitId {
  std::string hex;
  std::string short_hex() const { return hex.substr(0, 7); }
  auto operator<=>(const CommitId&) const = default;
};

// One entry of a git tree, as Repo::entries_named finds it.
struct NamedEntry {
  std::string id;  // its object id, hex
  bool folder = false;
};

// Revisions, diffs and trees of one repository. Not thread-safe: use one Repo
// per thread. Errors: an unknown revision is Error::usage naming it; one missing
// from a shallow clone is Error::environment naming the fix (`fetch-depth: 0`).
class Repo {
 public:
  virtual ~Repo() = default;
  // The commit `rev` ("main", "HEAD~1", "origin/main", a full or short id) names.
  // GitRepo refuses a `rev` longer than kMaxRevisionLength with Error::usage.
  virtual Result<CommitId> resolve(const std::string& rev) const = 0;
  // The best common ancestor of `a` and `b`; Error::usage if they have none.
  virtual Result<CommitId> merge_base(const CommitId& a, const CommitId& b) const = 0;
  // The files that differ from `base` to `head`, renames detected, sorted by path.
  virtual Result<std::vector<PathChange>> changed_paths(const CommitId& base,
                                                        const CommitId& head) const = 0;
  // The files at `commit`. The tree holds the repository open; it may outlive this Repo.
  virtual Result<std::unique_ptr<SourceTree>> tree_at(const CommitId& commit) const = 0;
  // Every entry named `name` in the folder `dir` of the kernel repository at `commit` ("" for
  // its root), in the order stored, each with whether it is a folder. git writes each entry a
  // checkout meets, so a malformed tree (unsorted, or with two entries of one name, which git's
  // own lookups miss) is read entry by entry. Error::usage when a folder on the way to `dir`
  // appears twice; empty when `dir` is not a folder at `commit`.
  virtual Result<std::vector<NamedEntry>> entries_named(const CommitId& commit,
                                                        const std::string& dir,
                                                        const std::string& name) const = 0;
  // The paths the work tree's index tracks under the kernel repository's folder `dir`, relative
  // to the kernel repository: what the checkout wrote there from git, which for a pull request's
  // merge commit is not head's tree. Empty for a repository without a work tree.
  virtual Result<std::vector<std::string>> tracked_under(const std::string& dir) const = 0;
};

// The longest revision text resolve() accepts: far above any real branch, tag or
// expression, and short enough that libgit2 never sees a pathological one.
inline constexpr std::size_t kMaxRevisionLength = 256;

// The git repository holding a kernel repository, read with libgit2.
class GitRepo : public Repo {
 public:
  // Opens the git repository that contains `kernel_repo` (it may be a subdirectory:
  // paths and trees are then relative to it). Error::usage if there is none.
  static Result<std::unique_ptr<GitRepo>> open(const std::filesystem::path& kernel_repo);

  Result<CommitId> resolve(const std::string& rev) const override;
  Result<CommitId> merge_base(const CommitId& a, const CommitId& b) const override;
  Result<std::vector<PathChange>> changed_paths(const CommitId& base,
                                                const CommitId& head) const override;
  Result<std::unique_ptr<SourceTree>> tree_at(const CommitId& commit) const override;
  Result<std::vector<NamedEntry>> entries_named(const CommitId& commit, const std::string& dir,
                                                const std::string& name) const override;
  Result<std::vector<std::string>> tracked_under(const std::string& dir) const override;

  // The kernel repository's path inside the git work tree ("" at its root).
  const std::string& prefix() const { return prefix_; }

 private:
  GitRepo(std::shared_ptr<git_repository> repo, std::string prefix)
      : repo_(std::move(repo)), prefix_(std::move(prefix)) {}

  std::shared_ptr<git_repository> repo_;  // shared with the trees handed out
  std::string prefix_;
};

}  // namespace kblaster
