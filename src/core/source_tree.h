// Read-only access to the files of a kernel repository at one revision: the
// working tree (DirectoryTree) or, later, a git commit. Paths are repo-relative.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kblaster {

class SourceTree {
 public:
  virtual ~SourceTree() = default;
  // The file's bytes, or nullopt if it does not exist or is not a regular file.
  virtual std::optional<std::string> read(const std::string& path) const = 0;
  virtual bool is_file(const std::string& path) const = 0;
  virtual bool is_directory(const std::string& path) const = 0;
  // Every regular file, repo-relative and sorted; build outputs, .git and .kblaster are skipped.
  virtual std::vector<std::string> list_files() const = 0;
  // Human-readable name of the tree for messages ("examples/kernels", "HEAD~1").
  virtual std::string describe() const = 0;
  // Why something at `path` reads as absent although it is there: it leads
  // outside the tree, or is too large. nullopt when nothing was refused.
  virtual std::optional<std::string> refusal(const std::string& path) const {
    static_cast<void>(path);
    return std::nullopt;
  }
  // An entry the tree left out because its name would make a path written from it climb out
  // of the directory it is written to ("..", ".git"), as its repo-relative path; nullopt when
  // none. Only a crafted git tree has one (GitTree).
  virtual std::optional<std::string> unsafe_entry() const { return std::nullopt; }
};

// " (REASON)" when `tree` refused `path`, else "": for "does not exist" messages.
std::string leaves_tree_note(const SourceTree& tree, const std::string& path);

// The largest file a DirectoryTree reads: a config or a kernel source is far smaller.
inline constexpr std::uintmax_t kMaxTreeFileBytes = 64ULL << 20;

// The files under a directory on disk. A path whose symbolic links lead
// outside the directory reads as absent (refusal() says why), so an untrusted
// repository cannot make kblaster read, hash or compile files outside it.
class DirectoryTree : public SourceTree {
 public:
  explicit DirectoryTree(std::filesystem::path root) : root_(std::move(root)) {}
  std::optional<std::string> read(const std::string& path) const override;
  bool is_file(const std::string& path) const override;
  bool is_directory(const std::string& path) const override;
  std::vector<std::string> list_files() const override;
  std::string describe() const override { return root_.string(); }
  std::optional<std::string> refusal(const std::string& path) const override;
  const std::filesystem::path& root() const { return root_; }

 private:
  // root_/path with every symbolic link resolved, when that stays inside root_.
  std::optional<std::filesystem::path> inside(const std::string& path) const;
  std::filesystem::path root_;
};

// Normalises a '/'-separated relative path ("a/./b/../c" -> "a/c"); nullopt if it
// climbs above the root or is absolute.
std::optional<std::string> normalize_relative(const std::string& path);

// Joins `relative` onto the directory holding `file` and normalises it.
std::optional<std::string> resolve_beside(const std::string& file, const std::string& relative);

}  // namespace kblaster
