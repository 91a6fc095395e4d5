#include "git/materialize.h"

#include <git2.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "git/repo_builder.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using testing::TempDir;

// The commit `rev` of the repository at `dir` and its tree, as check reads them.
struct AtCommit {
  CommitId commit;
  std::unique_ptr<SourceTree> tree;
};

AtCommit at_commit(const std::filesystem::path& dir, const std::string& rev) {
  auto git = GitRepo::open(dir);
  EXPECT_TRUE(git.ok()) << git.error().message;
  auto commit = (*git)->resolve(rev);
  EXPECT_TRUE(commit.ok()) << commit.error().message;
  auto tree = (*git)->tree_at(*commit);
  EXPECT_TRUE(tree.ok());
  return {*commit, std::move(*tree)};
}

TEST(MaterializeTree, WritesEveryFileOfTheCommitThenReusesIt) {
  TempDir dir;
  testing::RepoBuilder builder(dir.path() / "repo");
  builder.write("kblaster.toml", "# config\n");
  builder.write("k/a.cu", "void a() {}\n");
  const std::string first = builder.commit("first");
  builder.write("k/a.cu", "void a() { /* v2 */ }\n");
  builder.commit("second");

  auto [commit, tree] = at_commit(dir.path() / "repo", first);
  const auto trees = dir.path() / "trees";
  auto out = materialize_tree(*tree, commit, trees);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(*out, trees / commit.hex);
  DirectoryTree written(*out);
  EXPECT_EQ(written.list_files(), tree->list_files());
  EXPECT_EQ(written.read("k/a.cu"), "void a() {}\n");
  EXPECT_TRUE(std::filesystem::exists(trees / (commit.hex + ".complete")));

  // Complete: a second call writes nothing, so an edit on disk survives it.
  dir.write("trees/" + commit.hex + "/k/a.cu", "edited\n");
  auto again = materialize_tree(*tree, commit, trees);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(DirectoryTree(*again).read("k/a.cu"), "edited\n");

  // Without its marker the directory is a leftover and is written afresh.
  std::filesystem::remove(trees / (commit.hex + ".complete"));
  auto fresh = materialize_tree(*tree, commit, trees);
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(DirectoryTree(*fresh).read("k/a.cu"), "void a() {}\n");
  for (const auto& e : std::filesystem::directory_iterator(trees))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

// Writes `bytes` as a raw object of `type`, unchecked: libgit2's builders refuse the names a
// crafted commit uses, git's object database does not.
git_oid write_raw(git_repository* repo, git_object_t type, const std::string& bytes) {
  git_odb* odb = nullptr;
  EXPECT_EQ(git_repository_odb(&odb, repo), 0);
  git_oid id{};
  EXPECT_EQ(git_odb_write(&id, odb, bytes.data(), bytes.size(), type), 0);
  git_odb_free(odb);
  return id;
}

std::string tree_entry(const std::string& mode, const std::string& name, const git_oid& id) {
  return mode + " " + name + std::string(1, '\0') +
         std::string(reinterpret_cast<const char*>(id.id), GIT_OID_RAWSZ);
}

TEST(MaterializeTree, ACommitWhoseTreeClimbsOutWithDotDotIsRefusedAndWritesNothingOutside) {
  TempDir dir;
  testing::RepoBuilder builder(dir.path() / "repo");
  builder.write("kblaster.toml", "# config\n");
  builder.commit("first");
  git_repository* repo = nullptr;
  ASSERT_EQ(git_repository_open(&repo, (dir.path() / "repo").c_str()), 0);
  const git_oid blob = write_raw(repo, GIT_OBJECT_BLOB, "pwned\n");
  const git_oid config = write_raw(repo, GIT_OBJECT_BLOB, "# config\n");
  // trees/<hex>/../../pwned.txt: out of the tree and out of the trees folder.
  git_oid inner = write_raw(repo, GIT_OBJECT_TREE, tree_entry("100644", "pwned.txt", blob));
  inner = write_raw(repo, GIT_OBJECT_TREE, tree_entry("40000", "..", inner));
  const git_oid root =
      write_raw(repo, GIT_OBJECT_TREE,
                tree_entry("40000", "..", inner) + tree_entry("100644", "kblaster.toml", config));
  char root_hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(root_hex, sizeof root_hex, &root);
  const git_oid commit_id =
      write_raw(repo, GIT_OBJECT_COMMIT,
                std::string("tree ") + root_hex +
                    "\nauthor a <a@example.com> 1700000000 +0000\ncommitter a <a@example.com> "
                    "1700000000 +0000\n\ncrafted\n");
  char commit_hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(commit_hex, sizeof commit_hex, &commit_id);
  git_repository_free(repo);

  auto [commit, tree] = at_commit(dir.path() / "repo", commit_hex);
  EXPECT_EQ(tree->list_files(), std::vector<std::string>{"kblaster.toml"});
  EXPECT_EQ(tree->unsafe_entry(), "..");
  const auto trees = dir.path() / "state" / "trees";
  auto out = materialize_tree(*tree, commit, trees);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().kind, ErrorKind::usage);
  EXPECT_THAT(out.error().message,
              ::testing::HasSubstr("tree entry git refuses to check out, `..`"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "pwned.txt"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "state" / "pwned.txt"));
}

TEST(MaterializeTree, AMarkerThatIsALinkIsNeitherTrustedNorWrittenThrough) {
  TempDir dir;
  testing::RepoBuilder builder(dir.path() / "repo");
  builder.write("k/a.cu", "void a() {}\n");
  const std::string first = builder.commit("first");
  auto [commit, tree] = at_commit(dir.path() / "repo", first);
  const auto trees = dir.path() / "trees";
  dir.write("trees/" + commit.hex + "/k/a.cu", "planted\n");  // a tree nobody materialised
  dir.write("victim.txt", "precious\n");
  std::filesystem::create_symlink(dir.path() / "victim.txt", trees / (commit.hex + ".complete"));
  auto out = materialize_tree(*tree, commit, trees);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(DirectoryTree(*out).read("k/a.cu"), "void a() {}\n");
  EXPECT_EQ(DirectoryTree(dir.path()).read("victim.txt"), "precious\n");
  EXPECT_FALSE(std::filesystem::is_symlink(trees / (commit.hex + ".complete")));
}

}  // namespace
}  // namespace kblaster
