// check_state_folder_untouched: a change under check may not put files in `.kblaster`, where a
// planted "base" tree or compiled object would be trusted.
#include "git/state_folder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "git/repo_builder.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

// A repository with a config at its first commit, `base`.
struct StateRepo {
  testing::TempDir dir;
  testing::RepoBuilder builder{dir.path()};
  std::string base;
  explicit StateRepo(const std::string& tracked_kb = "") {
    builder.write("kblaster.toml", "# config\n");
    if (!tracked_kb.empty()) builder.write(".kblaster/kb.sqlite", tracked_kb);
    base = builder.commit("base");
  }
  // check_state_folder_untouched from `base` (or from none) to `head`.
  Status check(const std::string& head, bool with_base = true) {
    auto git = GitRepo::open(dir.path());
    EXPECT_TRUE(git.ok()) << git.error().message;
    const CommitId from = *(*git)->resolve(base), to = *(*git)->resolve(head);
    return check_state_folder_untouched(**git, with_base ? &from : nullptr, to);
  }
};

TEST(StateFolder, AHeadThatAddsFilesThereIsRefusedNamingThem) {
  StateRepo repo;
  repo.builder.write(".kblaster/trees/" + std::string(40, 'a') + ".complete", "planted\n");
  const std::string head = repo.builder.commit("plant a base tree");
  const Status s = repo.check(head);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::usage);
  EXPECT_THAT(s.error().message, HasSubstr("head " + head.substr(0, 7) + " adds `.kblaster/`"));
  EXPECT_THAT(s.error().message, HasSubstr("kblaster's own state folder"));
  // A branch's first push has no base to share it with.
  EXPECT_FALSE(repo.check(head, false).ok());
}

TEST(StateFolder, WhatBaseTracksThereIsKeptAndAnEditIsRefused) {
  StateRepo repo("the team's KB\n");
  repo.builder.write("k/a.cu", "void a() {}\n");
  EXPECT_TRUE(repo.check(repo.builder.commit("a change elsewhere")).ok());
  repo.builder.write(".kblaster/kb.sqlite", "a poisoned KB\n");
  const Status s = repo.check(repo.builder.commit("edit the KB"));
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message, HasSubstr("changes `.kblaster/` against base"));
}

TEST(StateFolder, AnUntrackedFolderIsNoConcernOfGit) {
  StateRepo repo;
  repo.builder.write("k/a.cu", "void a() {}\n");
  const std::string head = repo.builder.commit("head");
  EXPECT_TRUE(repo.check(head).ok());
  EXPECT_TRUE(repo.check(head, false).ok());
}

}  // namespace
}  // namespace kblaster
