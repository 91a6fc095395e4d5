#include "git/materialize.h"

#include <gtest/gtest.h>

#include "git/repo_builder.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using testing::TempDir;

TEST(MaterializeTree, WritesEveryFileOfTheCommitThenReusesIt) {
  TempDir dir;
  testing::RepoBuilder builder(dir.path() / "repo");
  builder.write("kblaster.toml", "# config\n");
  builder.write("k/a.cu", "void a() {}\n");
  const std::string first = builder.commit("first");
  builder.write("k/a.cu", "void a() { /* v2 */ }\n");
  builder.commit("second");

  auto git = GitRepo::open(dir.path() / "repo");
  ASSERT_TRUE(git.ok()) << git.error().message;
  auto commit = (*git)->resolve(first);
  ASSERT_TRUE(commit.ok());
  auto tree = (*git)->tree_at(*commit);
  ASSERT_TRUE(tree.ok());
  const auto trees = dir.path() / "trees";
  auto out = materialize_tree(**tree, *commit, trees);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(*out, trees / commit->hex);
  DirectoryTree written(*out);
  EXPECT_EQ(written.list_files(), (*tree)->list_files());
  EXPECT_EQ(written.read("k/a.cu"), "void a() {}\n");
  EXPECT_TRUE(std::filesystem::exists(trees / (commit->hex + ".complete")));

  // Complete: a second call writes nothing, so an edit on disk survives it.
  dir.write("trees/" + commit->hex + "/k/a.cu", "edited\n");
  auto again = materialize_tree(**tree, *commit, trees);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(DirectoryTree(*again).read("k/a.cu"), "edited\n");

  // Without its marker the directory is a leftover and is written afresh.
  std::filesystem::remove(trees / (commit->hex + ".complete"));
  auto fresh = materialize_tree(**tree, *commit, trees);
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(DirectoryTree(*fresh).read("k/a.cu"), "void a() {}\n");
  for (const auto& e : std::filesystem::directory_iterator(trees))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

}  // namespace
}  // namespace kblaster
