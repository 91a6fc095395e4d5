// A kernel repository held in memory, so that a fuzz target can hand load_config a
// kblaster.toml without touching the disk. Directories are implied by the files' paths.
#pragma once

#include <map>
#include <string>

#include "core/source_tree.h"

namespace kblaster {

class MemoryTree : public SourceTree {
 public:
  // `files` maps repo-relative paths ("kernels/axpy.cu") to their bytes.
  explicit MemoryTree(std::map<std::string, std::string> files) : files_(std::move(files)) {}
  std::optional<std::string> read(const std::string& path) const override;
  bool is_file(const std::string& path) const override;
  // True for "." and for every proper prefix of a file's path that ends at a '/'.
  bool is_directory(const std::string& path) const override;
  std::vector<std::string> list_files() const override;
  std::string describe() const override { return "(memory)"; }

 private:
  std::map<std::string, std::string> files_;
};

}  // namespace kblaster
