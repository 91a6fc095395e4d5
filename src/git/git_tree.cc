#include "git/git_tree.h"

#include <cctype>

namespace kblaster {
namespace {

// Folders DirectoryTree::list_files skips: build outputs and tool state.
bool is_skipped_directory(const std::string& name) {
  return name == ".git" || name == ".kblaster" || name == "build" || name == "node_modules" ||
         name.starts_with("build-");
}

bool in_skipped_directory(const std::string& path) {
  std::size_t start = 0;
  for (auto slash = path.find('/'); slash != std::string::npos; slash = path.find('/', start)) {
    if (is_skipped_directory(path.substr(start, slash - start))) return true;
    start = slash + 1;
  }
  return false;
}

// A name git's own checks (fsck, checkout) refuse: it would make a path climb out of, or into
// the repository's own `.git` of, the directory a tree is written to.
bool is_unsafe_name(std::string_view name) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string_view::npos)
    return true;
  if (name.size() != 4) return false;
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == ".git";
}

}  // namespace

GitTree::GitTree(std::shared_ptr<git_repository> repo, TreePtr tree, std::string label)
    : repo_(std::move(repo)), tree_(std::move(tree)), label_(std::move(label)) {}

const GitTree::Index& GitTree::index() const {
  if (index_) return *index_;
  index_.emplace();
  if (!tree_) return *index_;
  auto visit = [](const char* root, const git_tree_entry* entry, void* payload) -> int {
    auto& index = *static_cast<Index*>(payload);
    std::string path = std::string(root) + git_tree_entry_name(entry);
    const auto mode = git_tree_entry_filemode(entry);
    if (is_unsafe_name(git_tree_entry_name(entry)) || index.files.contains(path) ||
        index.directories.contains(path)) {  // a name twice in one folder: a malformed tree
      if (!index.unsafe) index.unsafe = path;
      return 1;  // skipped, with everything under it
    }
    if (mode == GIT_FILEMODE_TREE)
      index.directories.insert(std::move(path));
    else if (mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE)
      index.files.emplace(std::move(path), *git_tree_entry_id(entry));
    return 0;
  };
  // A walk fails only when a subtree is missing from the object database; what was
  // indexed before then stays, and the missing files read as absent.
  if (git_tree_walk(tree_.get(), GIT_TREEWALK_PRE, visit, &*index_) < 0) git_error_clear();
  return *index_;
}

const git_oid* GitTree::find(const std::string& path) const {
  const auto& files = index().files;
  auto it = files.find(path);
  if (it == files.end()) {
    auto normal = normalize_relative(path);
    if (!normal || *normal == path) return nullptr;
    it = files.find(*normal);
    if (it == files.end()) return nullptr;
  }
  return &it->second;
}

std::optional<git_oid> GitTree::blob_id(const std::string& path) const {
  const git_oid* id = find(path);
  return id ? std::optional<git_oid>(*id) : std::nullopt;
}

std::optional<std::string> GitTree::read(const std::string& path) const {
  const git_oid* id = find(path);
  if (!id) return std::nullopt;
  BlobPtr blob;
  if (git_blob_lookup(out(blob), repo_.get(), id) < 0) {
    git_error_clear();
    return std::nullopt;
  }
  const auto* bytes = static_cast<const char*>(git_blob_rawcontent(blob.get()));
  return std::string(bytes, static_cast<std::size_t>(git_blob_rawsize(blob.get())));
}

bool GitTree::is_file(const std::string& path) const { return find(path) != nullptr; }

bool GitTree::is_directory(const std::string& path) const {
  auto normal = path.empty() ? std::optional<std::string>(".") : normalize_relative(path);
  if (!normal) return false;
  if (*normal == ".") return tree_ != nullptr;
  return index().directories.count(*normal) > 0;
}

std::optional<std::string> GitTree::unsafe_entry() const { return index().unsafe; }

std::vector<std::string> GitTree::list_files() const {
  std::vector<std::string> files;
  for (const auto& [path, id] : index().files)
    if (!in_skipped_directory(path)) files.push_back(path);
  return files;  // std::map keeps them sorted
}

}  // namespace kblaster
