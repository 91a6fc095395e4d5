// Locations tests need: the source tree, the built CLI, and scratch directories.
#pragma once

#include <filesystem>
#include <string>

namespace kblaster::testing {

std::filesystem::path source_dir();       // the repository root
std::filesystem::path kblaster_binary();  // build/kblaster
std::filesystem::path examples_dir();     // examples/kernels

// The whole content of `path`; "" if it cannot be read.
std::string read_text(const std::filesystem::path& path);

// A fresh directory under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;  // owns the directory on disk
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // Writes `text` to path()/relative, creating parent directories.
  std::filesystem::path write(const std::string& relative, const std::string& text) const;

 private:
  std::filesystem::path path_;
};

}  // namespace kblaster::testing
