// A private temporary folder, removed with everything in it when its owner is destroyed.
#pragma once

#include <filesystem>
#include <string>

namespace kblaster {

class ScratchFolder {
 public:
  // Makes $TMPDIR/<prefix>-XXXXXX (mode 0700). When it cannot be made, path() is empty and
  // why() says what failed; callers then go on without it.
  explicit ScratchFolder(const std::string& prefix);
  // Removes the folder and what it holds; errors are ignored (nothing is left to tell).
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }
  const std::string& why() const { return why_; }

 private:
  std::filesystem::path path_;
  std::string why_;
};

}  // namespace kblaster
