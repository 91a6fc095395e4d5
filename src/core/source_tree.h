// Read-only access to the files of a kernel repository at one revision: the
// working tree (DirectoryTree) or, later, a git commit. Paths are repo-relative.
#pragma once

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
};

// The files under a directory on disk.
class DirectoryTree : public SourceTree {
 public:
  explicit DirectoryTree(std::filesystem::path root) : root_(std::move(root)) {}
  std::optional<std::string> read(const std::string& path) const override;
  bool is_file(const std::string& path) const override;
  bool is_directory(const std::string& path) const override;
  std::vector<std::string> list_files() const override;
  std::string describe() const override { return root_.string(); }
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

// Normalises a '/'-separated relative path ("a/./b/../c" -> "a/c"); nullopt if it
// climbs above the root or is absolute.
std::optional<std::string> normalize_relative(const std::string& path);

// Joins `relative` onto the directory holding `file` and normalises it.
std::optional<std::string> resolve_beside(const std::string& file, const std::string& relative);

}  // namespace kblaster
