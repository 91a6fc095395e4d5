#include "core/source_tree.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace kblaster {
namespace fs = std::filesystem;

std::optional<std::string> DirectoryTree::read(const std::string& path) const {
  std::error_code ec;
  if (!fs::is_regular_file(root_ / path, ec)) return std::nullopt;
  std::ifstream in(root_ / path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool DirectoryTree::is_file(const std::string& path) const {
  std::error_code ec;
  return fs::is_regular_file(root_ / path, ec);
}

bool DirectoryTree::is_directory(const std::string& path) const {
  std::error_code ec;
  return fs::is_directory(root_ / path, ec);
}

std::vector<std::string> DirectoryTree::list_files() const {
  static const std::vector<std::string> kSkipped = {".git", ".kblaster", "build", "node_modules"};
  std::vector<std::string> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(root_, fs::directory_options::skip_permission_denied, ec),
      end;
  for (; !ec && it != end; it.increment(ec)) {
    const auto name = it->path().filename().string();
    if (it->is_directory(ec)) {
      if (std::find(kSkipped.begin(), kSkipped.end(), name) != kSkipped.end() ||
          name.rfind("build-", 0) == 0)
        it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) files.push_back(fs::relative(it->path(), root_).generic_string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::optional<std::string> normalize_relative(const std::string& path) {
  if (path.empty() || path.front() == '/') return std::nullopt;
  std::vector<std::string> parts;
  std::stringstream in(path);
  for (std::string part; std::getline(in, part, '/');) {
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
    } else {
      parts.push_back(part);
    }
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out.empty() ? std::optional<std::string>(".") : out;
}

std::optional<std::string> resolve_beside(const std::string& file, const std::string& relative) {
  auto slash = file.rfind('/');
  std::string dir = slash == std::string::npos ? "" : file.substr(0, slash + 1);
  return normalize_relative(dir + relative);
}

}  // namespace kblaster
