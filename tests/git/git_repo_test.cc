// GitRepo and GitTree on real repositories built with libgit2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "git/repo.h"
#include "git/revision_range.h"
#include "kernel_repo_fixture.h"

namespace kblaster {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::RepoBuilder;
using testing::TempDir;

std::unique_ptr<GitRepo> open_repo(const std::filesystem::path& path) {
  auto repo = GitRepo::open(path);
  if (!repo) throw std::runtime_error(repo.error().describe());
  return std::move(*repo);
}

std::string describe(const PathChange& c) {
  return std::string(path_change_kind_name(c.kind)) + " " + c.old_path + " -> " + c.new_path;
}

TEST(GitRepo, ResolvesRevisionsToCommitIds) {
  TempDir dir;
  RepoBuilder git(dir.path());
  git.write("a.txt", "one\n");
  const auto first = git.commit("first");
  git.write("a.txt", "two\n");
  const auto second = git.commit("second");
  auto repo = open_repo(dir.path());
  EXPECT_EQ(repo->resolve("HEAD")->hex, second);
  EXPECT_EQ(repo->resolve("main~1")->hex, first);
  EXPECT_EQ(repo->resolve(first.substr(0, 10))->hex, first);
  EXPECT_EQ(repo->resolve("HEAD^{tree}").error().kind, ErrorKind::usage);
}

TEST(GitRepo, MissingRevisionInAFullCloneIsAUsageErrorNamingIt) {
  TempDir dir;
  RepoBuilder git(dir.path());
  git.write("a.txt", "one\n");
  git.commit("first");
  auto repo = open_repo(dir.path());
  for (const std::string& rev : {std::string("origin/nope"), std::string(40, 'e')}) {
    auto range = resolve_range(*repo, rev, "HEAD", BaseMode::merge_base);
    ASSERT_FALSE(range.ok()) << rev;
    EXPECT_EQ(range.error().kind, ErrorKind::usage);
    EXPECT_THAT(range.error().message, HasSubstr("base revision `" + rev + "` not found"));
  }
  auto head = resolve_range(*repo, "HEAD", "nope", BaseMode::as_given);
  ASSERT_FALSE(head.ok());
  EXPECT_THAT(head.error().message, HasSubstr("head revision `nope`"));
}

TEST(GitRepo, AnOverlongRevisionIsAUsageErrorNamingTheLimit) {
  TempDir dir;
  RepoBuilder git(dir.path());
  git.write("a.txt", "one\n");
  git.commit("first");
  auto repo = open_repo(dir.path());
  auto at_limit = repo->resolve(std::string(kMaxRevisionLength, 'x'));  // libgit2 parses it
  ASSERT_FALSE(at_limit.ok());
  EXPECT_EQ(at_limit.error().kind, ErrorKind::usage);
  EXPECT_THAT(at_limit.error().message, Not(HasSubstr("characters long")));
  auto range = resolve_range(*repo, std::string(4000, 'x'), "HEAD", BaseMode::as_given);
  ASSERT_FALSE(range.ok());
  EXPECT_EQ(range.error().kind, ErrorKind::usage);
  EXPECT_THAT(range.error().message, HasSubstr("base revision `xxxx"));
  EXPECT_THAT(range.error().message,
              HasSubstr("is 4000 characters long; a revision may have at most 256"));
  EXPECT_LT(range.error().message.size(), 300u) << "the message repeats the whole revision";
}

TEST(GitRepo, MissingBaseInAShallowCloneNamesTheFix) {
  // a <- b <- c, cut at b as `fetch-depth: 2` would: a is not in the clone.
  TempDir dir;
  RepoBuilder git(dir.path());
  git.write("a.txt", "one\n");
  const auto a = git.commit("a");
  git.write("a.txt", "two\n");
  const auto b = git.commit("b");
  git.write("a.txt", "three\n");
  git.commit("c");
  git.make_shallow(b, {a});
  auto repo = open_repo(dir.path());
  for (const std::string& rev : {a, std::string("HEAD~2")}) {
    auto range = resolve_range(*repo, rev, "HEAD", BaseMode::as_given);
    ASSERT_FALSE(range.ok()) << rev;
    EXPECT_EQ(range.error().kind, ErrorKind::environment);
    EXPECT_THAT(range.error().message,
                HasSubstr("base revision `" + rev + "` is not in this clone (it is shallow)"));
    EXPECT_THAT(range.error().message, HasSubstr("`fetch-depth: 0` in actions/checkout"));
  }
  // What the clone has still works.
  auto range = resolve_range(*repo, b, "HEAD", BaseMode::as_given);
  ASSERT_TRUE(range.ok()) << range.error().describe();
  EXPECT_EQ(repo->changed_paths(range->base, range->head)->size(), 1u);
}

TEST(GitRepo, MergeBaseBeyondAShallowBoundaryNamesTheFix) {
  // root <- main and root <- side, fetched with depth 1 on each branch: no root.
  TempDir dir;
  RepoBuilder git(dir.path());
  git.write("a.txt", "one\n");
  const auto root = git.commit("root");
  git.write("a.txt", "main\n");
  const auto m = git.commit("main");
  git.branch("side", root);
  git.write("b.txt", "side\n");
  const auto s = git.commit("side");
  git.make_shallow(m + "\n" + s, {root});
  auto range = resolve_range(*open_repo(dir.path()), "main", "side", BaseMode::merge_base);
  ASSERT_FALSE(range.ok());
  EXPECT_EQ(range.error().kind, ErrorKind::environment) << range.error().describe();
  EXPECT_THAT(range.error().message, HasSubstr("is not in this clone (it is shallow)"));
}

TEST(GitRepo, MergeBaseOfBranchesAndUnrelatedHistories) {
  TempDir dir;
  RepoBuilder git(dir.path());
  git.write("a.txt", "one\n");
  const auto root = git.commit("root");
  git.write("a.txt", "main\n");
  const auto m = git.commit("main");
  git.branch("side", root);
  git.write("b.txt", "side\n");
  const auto s = git.commit("side");
  auto repo = open_repo(dir.path());
  EXPECT_EQ(repo->merge_base(CommitId{m}, CommitId{s})->hex, root);
  auto range = resolve_range(*repo, "main", "side", BaseMode::merge_base);
  ASSERT_TRUE(range.ok());
  EXPECT_EQ(range->base.hex, root);
  EXPECT_EQ(range->head.hex, s);

  git.orphan("unrelated");
  git.write("c.txt", "elsewhere\n");
  const auto u = git.commit("unrelated root");
  auto none = repo->merge_base(CommitId{m}, CommitId{u});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().kind, ErrorKind::usage);
  EXPECT_THAT(none.error().message, HasSubstr("share no history"));
}

TEST(GitRepo, ChangedPathsDetectRenames) {
  TempDir dir;
  RepoBuilder git(dir.path());
  const std::string body(400, 'x');
  git.write("k/old.cu", body + "\n");
  git.write("k/gone.h", "gone\n");
  git.write("k/edit.h", "one\n");
  const auto base = git.commit("base");
  git.rename("k/old.cu", "k/new.cu");
  git.remove("k/gone.h");
  git.write("k/edit.h", "two\n");
  git.write("k/added.h", "new\n");
  const auto head = git.commit("head");
  auto changes = open_repo(dir.path())->changed_paths(CommitId{base}, CommitId{head});
  ASSERT_TRUE(changes.ok()) << changes.error().describe();
  std::vector<std::string> seen;
  for (const auto& c : *changes) seen.push_back(describe(c));
  EXPECT_THAT(seen, ElementsAre("added  -> k/added.h", "modified k/edit.h -> k/edit.h",
                                "deleted k/gone.h -> ", "renamed k/old.cu -> k/new.cu"));
}

TEST(GitRepo, AKernelRepositoryInASubdirectorySeesOnlyItsFiles) {
  TempDir dir;
  RepoBuilder git(dir.path());
  git.write("README.md", "top\n");
  git.write("kernels/k.cu", "one\n");
  const auto base = git.commit("base");
  git.write("README.md", "top, edited\n");
  git.write("kernels/k.cu", "two\n");
  const auto head = git.commit("head");
  std::filesystem::create_directories(dir.path() / "kernels");
  auto repo = open_repo(dir.path() / "kernels");
  EXPECT_EQ(repo->prefix(), "kernels");
  auto changes = repo->changed_paths(CommitId{base}, CommitId{head});
  ASSERT_EQ(changes->size(), 1u);
  EXPECT_EQ((*changes)[0].new_path, "k.cu");
  auto tree = repo->tree_at(CommitId{head});
  EXPECT_EQ(tree.value()->read("k.cu"), "two\n");
  EXPECT_THAT(tree.value()->list_files(), ElementsAre("k.cu"));
}

TEST(GitRepo, OpeningOutsideAnyRepositoryIsAUsageError) {
  TempDir dir;
  auto repo = GitRepo::open(dir.path());
  ASSERT_FALSE(repo.ok());
  EXPECT_EQ(repo.error().kind, ErrorKind::usage);
  EXPECT_THAT(repo.error().message, HasSubstr("not inside a git repository"));
}

TEST(GitTree, ReadsFilesAndDirectoriesOfOneCommit) {
  TempDir dir;
  RepoBuilder git(dir.path());
  git.write("kblaster.toml", "[project]\n");
  git.write("include/util/a.cuh", "#pragma once\n");
  git.write("build/out.o", "object");
  git.write("node_modules/x.js", "x");
  git.write("build-gpu/y.o", "y");
  git.write("docs/build.md", "a file named build is kept");
  const auto first = git.commit("first");
  git.write("include/util/a.cuh", "#pragma once // v2\n");
  git.commit("second");
  auto tree = open_repo(dir.path())->tree_at(CommitId{first});
  ASSERT_TRUE(tree.ok()) << tree.error().describe();
  const SourceTree& t = **tree;
  EXPECT_EQ(t.read("include/util/a.cuh"), "#pragma once\n");
  EXPECT_EQ(t.read("include/./util/../util/a.cuh"), "#pragma once\n");
  EXPECT_EQ(t.read("include/util"), std::nullopt);
  EXPECT_EQ(t.read("missing.h"), std::nullopt);
  EXPECT_TRUE(t.is_file("kblaster.toml"));
  EXPECT_FALSE(t.is_file("include"));
  EXPECT_TRUE(t.is_directory("include/util"));
  EXPECT_TRUE(t.is_directory("."));
  EXPECT_FALSE(t.is_directory("kblaster.toml"));
  EXPECT_THAT(t.list_files(), ElementsAre("docs/build.md", "include/util/a.cuh", "kblaster.toml"));
  EXPECT_EQ(t.describe(), first.substr(0, 7));
}

}  // namespace
}  // namespace kblaster
