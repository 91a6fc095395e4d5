#include "git/repo.h"

#include "git/commit_tree.h"
#include "git/git_tree.h"
#include "git/libgit2.h"

namespace kblaster {
namespace fs = std::filesystem;
namespace {

// `path`, relative to the work tree of `repo`; "" at its root.
Result<std::string> prefix_in(git_repository* repo, const fs::path& path) {
  const char* workdir = git_repository_workdir(repo);
  if (!workdir) return std::string();  // bare: the kernel repository is the tree's root
  std::error_code ec;
  auto root = fs::canonical(workdir, ec);
  auto here = ec ? fs::path() : fs::canonical(path, ec);
  if (ec) return Error::io("cannot resolve " + path.string() + ": " + ec.message());
  auto relative = here.lexically_relative(root).generic_string();
  return relative == "." ? std::string() : relative;
}

}  // namespace

Result<std::unique_ptr<GitRepo>> GitRepo::open(const fs::path& kernel_repo) {
  KB_TRY(ensure_libgit2());
  RepositoryPtr owner;
  const int rc = git_repository_open_ext(out(owner), kernel_repo.c_str(), 0, nullptr);
  if (rc == GIT_ENOTFOUND) {
    git_error_clear();
    return Error::usage(kernel_repo.string() +
                        " is not inside a git repository; comparing revisions needs one");
  }
  if (rc == GIT_EOWNER) {
    auto why = git_last_message();
    git_error_clear();
    return Error::environment(why + "; trust it with `git config --global --add safe.directory " +
                              kernel_repo.string() + "`");
  }
  if (rc < 0) return git_call_error("git_repository_open_ext", rc, __FILE__, __LINE__);
  std::shared_ptr<git_repository> repo(owner.release(), git_repository_free);
  auto prefix = prefix_in(repo.get(), kernel_repo);
  if (!prefix) return prefix.error();
  return std::unique_ptr<GitRepo>(new GitRepo(std::move(repo), std::move(*prefix)));
}

Result<CommitId> GitRepo::resolve(const std::string& rev) const {
  if (rev.size() > kMaxRevisionLength)
    return Error::usage("revision `" + rev.substr(0, 40) + "…` is " + std::to_string(rev.size()) +
                        " characters long; a revision may have at most " +
                        std::to_string(kMaxRevisionLength) +
                        " (give a branch, a tag or a commit id)");
  ObjectPtr object;
  const int rc = git_revparse_single(out(object), repo_.get(), rev.c_str());
  if (is_missing_object(repo_.get(), rc))
    return missing_from_clone(repo_.get(), "revision `" + rev + "`", "not found");
  if (rc == GIT_EAMBIGUOUS || rc == GIT_EINVALIDSPEC) {
    auto why = git_last_message();
    git_error_clear();
    return Error::usage("revision `" + rev + "` cannot be resolved: " + why);
  }
  if (rc < 0) return git_call_error("git_revparse_single", rc, __FILE__, __LINE__);
  ObjectPtr commit;
  if (git_object_peel(out(commit), object.get(), GIT_OBJECT_COMMIT) < 0) {
    git_error_clear();
    return Error::usage("revision `" + rev + "` does not name a commit");
  }
  return CommitId{oid_hex(*git_object_id(commit.get()))};
}

Result<CommitId> GitRepo::merge_base(const CommitId& a, const CommitId& b) const {
  auto oa = parse_commit_id(a);
  if (!oa) return oa.error();
  auto ob = parse_commit_id(b);
  if (!ob) return ob.error();
  git_oid base;
  const int rc = git_merge_base(&base, repo_.get(), &*oa, &*ob);
  if (is_missing_object(repo_.get(), rc))
    return missing_from_clone(repo_.get(),
                              "the merge base of " + a.short_hex() + " and " + b.short_hex(),
                              "does not exist: they share no history");
  if (rc < 0) return git_call_error("git_merge_base", rc, __FILE__, __LINE__);
  return CommitId{oid_hex(base)};
}

Result<std::unique_ptr<SourceTree>> GitRepo::tree_at(const CommitId& commit) const {
  auto tree = commit_subtree(repo_.get(), commit, prefix_);
  if (!tree) return tree.error();
  return std::unique_ptr<SourceTree>(
      std::make_unique<GitTree>(repo_, std::move(*tree), commit.short_hex()));
}

namespace {

// The entries of `tree` named `name`, read one by one (git_tree_entry_byname's binary search
// misses an entry of a malformed, unsorted tree, and finds only one of two of the same name).
std::vector<const git_tree_entry*> scan_named(const git_tree* tree, const std::string& name) {
  std::vector<const git_tree_entry*> found;
  for (std::size_t i = 0, n = git_tree_entrycount(tree); i < n; ++i)
    if (const git_tree_entry* e = git_tree_entry_byindex(tree, i); git_tree_entry_name(e) == name)
      found.push_back(e);
  return found;
}

}  // namespace

Result<std::vector<NamedEntry>> GitRepo::entries_named(const CommitId& commit,
                                                       const std::string& dir,
                                                       const std::string& name) const {
  auto root = commit_subtree(repo_.get(), commit, "");
  if (!root) return root.error();
  TreePtr tree = std::move(*root);
  std::string path = prefix_.empty() ? dir : dir.empty() ? prefix_ : prefix_ + "/" + dir;
  for (std::size_t start = 0; tree && !path.empty() && start <= path.size();) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    const std::string part = path.substr(start, slash - start);
    start = slash + 1;
    const auto found = scan_named(tree.get(), part);
    if (found.size() > 1)
      return Error::usage("commit " + commit.short_hex() + " has " + std::to_string(found.size()) +
                          " entries named `" + part +
                          "` in one folder, a tree git itself refuses (`git fsck`)");
    if (found.empty() || git_tree_entry_type(found[0]) != GIT_OBJECT_TREE)
      return std::vector<NamedEntry>{};
    TreePtr next;
    KB_GIT_CALL(git_tree_lookup(out(next), repo_.get(), git_tree_entry_id(found[0])));
    tree = std::move(next);
  }
  std::vector<NamedEntry> out_entries;
  if (!tree) return out_entries;
  for (const git_tree_entry* e : scan_named(tree.get(), name)) {
    char hex[GIT_OID_HEXSZ + 1] = {};
    git_oid_tostr(hex, sizeof hex, git_tree_entry_id(e));
    out_entries.push_back({hex, git_tree_entry_type(e) == GIT_OBJECT_TREE});
  }
  return out_entries;
}

Result<std::vector<std::string>> GitRepo::tracked_under(const std::string& dir) const {
  std::vector<std::string> paths;
  if (git_repository_is_bare(repo_.get()) == 1) return paths;
  IndexPtr index;
  if (const int rc = git_repository_index(out(index), repo_.get()); rc < 0) {
    const std::string why = git_last_message();
    git_error_clear();
    return Error::environment(
        "cannot read the work tree's git index (" + why +
        "); a split or sparse index is one libgit2 cannot read: `git update-index "
        "--no-split-index`, or `git sparse-checkout disable`, makes it readable");
  }
  const std::string root = prefix_.empty() ? "" : prefix_ + "/";
  const std::string at = root + dir, under = at + "/";
  // Every entry, not git_index_find_prefix: an index is a checkout's, in whatever order it holds.
  // The folder itself counts too: tracked as a link or a submodule, it is an entry of its own.
  for (std::size_t i = 0, n = git_index_entrycount(index.get()); i < n; ++i)
    if (const git_index_entry* e = git_index_get_byindex(index.get(), i);
        e && (e->path == at || std::string_view(e->path).starts_with(under)))
      paths.push_back(std::string(e->path).substr(root.size()));
  return paths;
}

}  // namespace kblaster
