#include "core/source_tree.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace kblaster {
namespace fs = std::filesystem;

std::string leaves_tree_note(const SourceTree& tree, const std::string& path) {
  auto why = tree.refusal(path);
  return why ? " (" + *why + ")" : "";
}

std::optional<fs::path> DirectoryTree::inside(const std::string& path) const {
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(fs::absolute(root_, ec), ec);
  if (ec) return std::nullopt;
  const fs::path resolved = fs::weakly_canonical(root / path, ec);
  if (ec) return std::nullopt;
  const fs::path relative = resolved.lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..") return std::nullopt;
  return resolved;
}

std::optional<std::string> DirectoryTree::refusal(const std::string& path) const {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(root_ / path, ec))) return std::nullopt;
  if (!inside(path))
    return "`" + path + "` is or passes through a symbolic link that leads outside " +
           root_.string();
  if (fs::is_regular_file(root_ / path, ec) && fs::file_size(root_ / path, ec) > kMaxTreeFileBytes)
    return "`" + path + "` is larger than " + std::to_string(kMaxTreeFileBytes >> 20) + " MiB";
  return std::nullopt;
}

std::optional<std::string> DirectoryTree::read(const std::string& path) const {
  std::error_code ec;
  const auto file = inside(path);
  if (!file || !fs::is_regular_file(*file, ec)) return std::nullopt;
  if (fs::file_size(*file, ec) > kMaxTreeFileBytes || ec) return std::nullopt;
  std::ifstream in(*file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool DirectoryTree::is_file(const std::string& path) const {
  std::error_code ec;
  const auto file = inside(path);
  return file && fs::is_regular_file(*file, ec);
}

bool DirectoryTree::is_directory(const std::string& path) const {
  std::error_code ec;
  const auto dir = inside(path);
  return dir && fs::is_directory(*dir, ec);
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
    if (!it->is_regular_file(ec)) continue;
    std::string relative = fs::relative(it->path(), root_).generic_string();
    if (!it->is_symlink(ec) || inside(relative)) files.push_back(std::move(relative));
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::optional<std::string> normalize_relative(const std::string& path) {
  if (path.empty() || path.front() == '/') return std::nullopt;
  std::vector<std::string_view> parts;
  const std::string_view all(path);
  for (std::size_t start = 0; start <= all.size();) {
    const std::size_t slash = std::min(all.find('/', start), all.size());
    const std::string_view part = all.substr(start, slash - start);
    start = slash + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
    } else {
      parts.push_back(part);
    }
  }
  if (parts.empty()) return std::string(".");
  std::string out;
  out.reserve(path.size());
  for (const auto& p : parts) {
    if (!out.empty()) out += '/';
    out += p;
  }
  return out;
}

std::optional<std::string> resolve_beside(const std::string& file, const std::string& relative) {
  auto slash = file.rfind('/');
  std::string dir = slash == std::string::npos ? "" : file.substr(0, slash + 1);
  return normalize_relative(dir + relative);
}

}  // namespace kblaster
