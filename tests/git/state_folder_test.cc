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

struct Range {
  CommitId base, head;
};

Range commits(const GitRepo& git, const std::string& base, const std::string& head) {
  return {*git.resolve(base), *git.resolve(head)};
}

TEST(StateFolder, AHeadThatAddsFilesThereIsRefusedNamingThem) {
  testing::TempDir dir;
  testing::RepoBuilder builder(dir.path());
  builder.write("kblaster.toml", "# config\n");
  const std::string base = builder.commit("base");
  builder.write(".kblaster/trees/" + std::string(40, 'a') + ".complete", "planted\n");
  const std::string head = builder.commit("plant a base tree");
  auto git = GitRepo::open(dir.path());
  ASSERT_TRUE(git.ok()) << git.error().message;
  const Range r = commits(**git, base, head);
  const Status s = check_state_folder_untouched(**git, &r.base, r.head);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::usage);
  EXPECT_THAT(s.error().message, HasSubstr("head " + r.head.short_hex() + " adds `.kblaster/`"));
  EXPECT_THAT(s.error().message, HasSubstr("kblaster's own state folder"));
  // A branch's first push has no base to share it with.
  EXPECT_FALSE(check_state_folder_untouched(**git, nullptr, r.head).ok());
}

TEST(StateFolder, WhatBaseTracksThereIsKeptAndAnEditIsRefused) {
  testing::TempDir dir;
  testing::RepoBuilder builder(dir.path());
  builder.write("kblaster.toml", "# config\n");
  builder.write(".kblaster/kb.sqlite", "the team's KB\n");
  const std::string base = builder.commit("base commits its KB");
  builder.write("k/a.cu", "void a() {}\n");
  const std::string same = builder.commit("a change elsewhere");
  builder.write(".kblaster/kb.sqlite", "a poisoned KB\n");
  const std::string edited = builder.commit("edit the KB");
  auto git = GitRepo::open(dir.path());
  ASSERT_TRUE(git.ok()) << git.error().message;
  const Range kept = commits(**git, base, same);
  EXPECT_TRUE(check_state_folder_untouched(**git, &kept.base, kept.head).ok());
  const Range changed = commits(**git, base, edited);
  const Status s = check_state_folder_untouched(**git, &changed.base, changed.head);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.error().message, HasSubstr("changes `.kblaster/` against base"));
}

TEST(StateFolder, AnUntrackedFolderIsNoConcernOfGit) {
  testing::TempDir dir;
  testing::RepoBuilder builder(dir.path());
  builder.write("kblaster.toml", "# config\n");
  const std::string base = builder.commit("base");
  builder.write("k/a.cu", "void a() {}\n");
  const std::string head = builder.commit("head");
  auto git = GitRepo::open(dir.path());
  ASSERT_TRUE(git.ok()) << git.error().message;
  const Range r = commits(**git, base, head);
  EXPECT_TRUE(check_state_folder_untouched(**git, &r.base, r.head).ok());
  EXPECT_TRUE(check_state_folder_untouched(**git, nullptr, r.head).ok());
}

}  // namespace
}  // namespace kblaster
