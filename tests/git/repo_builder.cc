#include "git/repo_builder.h"

#include <fstream>
#include <stdexcept>

namespace kblaster::testing {
namespace {

void check(int rc, const char* call) {
  if (rc < 0) throw std::runtime_error(std::string(call) + " failed: " + git_last_message());
}

git_oid oid_of(const std::string& hex) {
  git_oid id;
  check(git_oid_fromstr(&id, hex.c_str()), "git_oid_fromstr");
  return id;
}

}  // namespace

RepoBuilder::RepoBuilder(const std::filesystem::path& dir) : dir_(dir) {
  if (!ensure_libgit2().ok()) throw std::runtime_error("libgit2 init failed");
  std::filesystem::create_directories(dir);
  check(git_repository_init(out(repo_), dir.c_str(), 0), "git_repository_init");
  check(git_repository_set_head(repo_.get(), "refs/heads/main"), "git_repository_set_head");
}

void RepoBuilder::write(const std::string& path, const std::string& text) { files_[path] = text; }
void RepoBuilder::remove(const std::string& path) { files_.erase(path); }
void RepoBuilder::rename(const std::string& from, const std::string& to) {
  files_[to] = files_.at(from);
  files_.erase(from);
}

// The tree of the files under `dir` ("" or "a/b/"), written to the object database.
git_oid RepoBuilder::write_tree(const Files& files, const std::string& dir) {
  TreeBuilderPtr builder;
  check(git_treebuilder_new(out(builder), repo_.get(), nullptr), "git_treebuilder_new");
  for (auto it = files.lower_bound(dir); it != files.end() && it->first.starts_with(dir);) {
    const std::string rest = it->first.substr(dir.size());
    const auto slash = rest.find('/');
    git_oid id;
    if (slash == std::string::npos) {
      check(git_blob_create_from_buffer(&id, repo_.get(), it->second.data(), it->second.size()),
            "git_blob_create_from_buffer");
      check(git_treebuilder_insert(nullptr, builder.get(), rest.c_str(), &id, GIT_FILEMODE_BLOB),
            "git_treebuilder_insert");
      ++it;
      continue;
    }
    const std::string sub = dir + rest.substr(0, slash + 1);
    id = write_tree(files, sub);
    check(git_treebuilder_insert(nullptr, builder.get(), rest.substr(0, slash).c_str(), &id,
                                 GIT_FILEMODE_TREE),
          "git_treebuilder_insert");
    while (it != files.end() && it->first.starts_with(sub)) ++it;
  }
  git_oid tree;
  check(git_treebuilder_write(&tree, builder.get()), "git_treebuilder_write");
  return tree;
}

std::string RepoBuilder::commit_with(const std::string& message,
                                     const std::vector<std::string>& parents) {
  const git_oid tree_id = write_tree(files_, "");
  TreePtr tree;
  check(git_tree_lookup(out(tree), repo_.get(), &tree_id), "git_tree_lookup");
  std::vector<CommitPtr> owners(parents.size());
  std::vector<const git_commit*> raw;
  for (std::size_t i = 0; i < parents.size(); ++i) {
    const git_oid id = oid_of(parents[i]);
    check(git_commit_lookup(out(owners[i]), repo_.get(), &id), "git_commit_lookup");
    raw.push_back(owners[i].get());
  }
  SignaturePtr sig;
  check(git_signature_new(out(sig), "kblaster test", "test@example.com", 1700000000 + ++clock_, 0),
        "git_signature_new");
  const std::string ref = "refs/heads/" + branch_;
  git_oid id;
  check(git_commit_create(&id, repo_.get(), ref.c_str(), sig.get(), sig.get(), nullptr,
                          message.c_str(), tree.get(), raw.size(), raw.data()),
        "git_commit_create");
  const std::string hex = oid_hex(id);
  snapshots_[hex] = files_;
  tips_[branch_] = hex;
  return hex;
}

std::string RepoBuilder::commit(const std::string& message) {
  auto tip = tips_.find(branch_);
  return commit_with(message, tip == tips_.end() ? std::vector<std::string>{}
                                                 : std::vector<std::string>{tip->second});
}

std::string RepoBuilder::merge(const std::string& other, const std::string& message) {
  return commit_with(message, {tips_.at(branch_), other});
}

void RepoBuilder::branch(const std::string& name, const std::string& at) {
  CommitPtr commit;
  const git_oid id = oid_of(at);
  check(git_commit_lookup(out(commit), repo_.get(), &id), "git_commit_lookup");
  ReferencePtr ref;
  check(git_branch_create(out(ref), repo_.get(), name.c_str(), commit.get(), 0),
        "git_branch_create");
  tips_[name] = at;
  checkout(name);
}

void RepoBuilder::orphan(const std::string& name) {
  branch_ = name;
  files_.clear();
}

void RepoBuilder::checkout(const std::string& name) {
  branch_ = name;
  files_ = snapshots_.at(tips_.at(name));
  check(git_repository_set_head(repo_.get(), ("refs/heads/" + name).c_str()),
        "git_repository_set_head");
}

void RepoBuilder::make_shallow(const std::string& boundary, const std::vector<std::string>& lost) {
  const auto git_dir = dir_ / ".git";
  std::ofstream(git_dir / "shallow") << boundary << "\n";
  for (const auto& hex : lost) {
    const auto object = git_dir / "objects" / hex.substr(0, 2) / hex.substr(2);
    if (!std::filesystem::remove(object)) throw std::runtime_error("no loose object " + hex);
  }
}

RawObjects::RawObjects(const std::filesystem::path& dir) {
  check(git_repository_open(out(repo_), dir.c_str()), "git_repository_open");
}

std::string RawObjects::write(git_object_t type, const std::string& bytes) {
  git_odb* odb = nullptr;
  check(git_repository_odb(&odb, repo_.get()), "git_repository_odb");
  git_oid id{};
  const int rc = git_odb_write(&id, odb, bytes.data(), bytes.size(), type);
  git_odb_free(odb);
  check(rc, "git_odb_write");
  char hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(hex, sizeof hex, &id);
  return hex;
}

std::string RawObjects::blob(const std::string& text) { return write(GIT_OBJECT_BLOB, text); }

std::string RawObjects::tree(const std::vector<Entry>& entries) {
  std::string bytes;
  for (const Entry& e : entries) {
    const git_oid id = oid_of(e.id);
    bytes += e.mode + " " + e.name + std::string(1, '\0') +
             std::string(reinterpret_cast<const char*>(id.id), GIT_OID_RAWSZ);
  }
  return write(GIT_OBJECT_TREE, bytes);
}

std::string RawObjects::commit(const std::string& tree, const std::string& message) {
  return write(GIT_OBJECT_COMMIT, "tree " + tree +
                                      "\nauthor a <a@example.com> 1700000000 +0000\n"
                                      "committer a <a@example.com> 1700000000 +0000\n\n" +
                                      message + "\n");
}

void RawObjects::stage(const std::string& path, const std::string& text) {
  IndexPtr index;
  check(git_repository_index(out(index), repo_.get()), "git_repository_index");
  git_index_entry entry{};
  entry.mode = GIT_FILEMODE_BLOB;
  entry.path = path.c_str();
  check(git_index_add_from_buffer(index.get(), &entry, text.data(), text.size()),
        "git_index_add_from_buffer");
  check(git_index_write(index.get()), "git_index_write");
}

}  // namespace kblaster::testing
