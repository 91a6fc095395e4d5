#include "memory_tree.h"

namespace kblaster {

std::optional<std::string> MemoryTree::read(const std::string& path) const {
  auto it = files_.find(path);
  if (it == files_.end()) return std::nullopt;
  return it->second;
}

bool MemoryTree::is_file(const std::string& path) const { return files_.count(path) > 0; }

bool MemoryTree::is_directory(const std::string& path) const {
  if (path == "." || path.empty()) return true;
  const std::string prefix = path.back() == '/' ? path : path + "/";
  auto it = files_.lower_bound(prefix);
  return it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0;
}

std::vector<std::string> MemoryTree::list_files() const {
  std::vector<std::string> paths;
  for (const auto& [path, bytes] : files_) paths.push_back(path);
  return paths;  // std::map keeps them sorted
}

}  // namespace kblaster
