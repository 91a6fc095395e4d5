#include "git/materialize.h"

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

// A repository with one ordinary commit, and a writer of crafted objects into it.
struct CraftedRepo {
  TempDir dir;
  testing::RepoBuilder builder{dir.path() / "repo"};
  testing::RawObjects raw = (builder.write("kblaster.toml", "# config\n"), builder.commit("first"),
                             testing::RawObjects(dir.path() / "repo"));
};

TEST(MaterializeTree, ACommitWhoseTreeClimbsOutWithDotDotIsRefusedAndWritesNothingOutside) {
  CraftedRepo crafted;
  TempDir& dir = crafted.dir;
  testing::RawObjects& raw = crafted.raw;
  // trees/<hex>/../../pwned.txt: out of the tree and out of the trees folder.
  std::string inner = raw.tree({{"100644", "pwned.txt", raw.blob("pwned\n")}});
  inner = raw.tree({{"40000", "..", inner}});
  const std::string commit_hex = raw.commit(
      raw.tree({{"40000", "..", inner}, {"100644", "kblaster.toml", raw.blob("# config\n")}}),
      "crafted");
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

TEST(MaterializeTree, AGitFolderInAnyCaseOrANameTwiceIsAnUnsafeEntry) {
  CraftedRepo crafted;
  TempDir& dir = crafted.dir;
  testing::RawObjects& raw = crafted.raw;
  const std::string config = raw.blob("# config\n"), hook = raw.blob("#!/bin/sh\n");
  const std::string dot_git =
      raw.commit(raw.tree({{"40000", ".GIT", raw.tree({{"100644", "config", hook}})},
                           {"100644", "kblaster.toml", config}}),
                 "a .git folder");
  EXPECT_EQ(at_commit(dir.path() / "repo", dot_git).tree->unsafe_entry(), ".GIT");
  const std::string twice = raw.commit(
      raw.tree({{"100644", "kblaster.toml", config}, {"100644", "kblaster.toml", hook}}), "twice");
  auto [commit, tree] = at_commit(dir.path() / "repo", twice);
  EXPECT_EQ(tree->unsafe_entry(), "kblaster.toml");
  EXPECT_EQ(tree->read("kblaster.toml"), "# config\n") << "the first one, as stored";
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
