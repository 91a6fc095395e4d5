// check_state_folder_untouched: a change under check may not track what check trusts in
// `.kblaster` (its materialised trees and compile cache), however its tree is written.
#include "git/state_folder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "git/repo_builder.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

// A git repository holding a kernel repository at `sub` ("" for its root).
struct StateRepo {
  testing::TempDir dir;
  testing::RepoBuilder builder{dir.path()};
  std::string sub;
  explicit StateRepo(std::string in = "") : sub(std::move(in)) {
    builder.write(path("kblaster.toml"), "# config\n");
    std::filesystem::create_directories(dir.path() / sub);
  }
  std::string path(const std::string& file) const { return sub.empty() ? file : sub + "/" + file; }
  // check_state_folder_untouched at `head`.
  Status check(const std::string& head) {
    auto git = GitRepo::open(dir.path() / sub);
    EXPECT_TRUE(git.ok()) << git.error().message;
    return check_state_folder_untouched(**git, *(*git)->resolve(head));
  }
};

TEST(StateFolder, AHeadThatTracksTheTreesOrTheCacheIsRefusedNamingThem) {
  StateRepo repo;
  EXPECT_TRUE(repo.check(repo.builder.commit("base")).ok());
  repo.builder.write(".kblaster/trees/" + std::string(40, 'a') + ".complete", "planted\n");
  const std::string head = repo.builder.commit("plant a base tree");
  const Status s = repo.check(head);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::usage);
  EXPECT_THAT(s.error().message,
              HasSubstr("head " + head.substr(0, 7) + " tracks `.kblaster/trees`"));
  EXPECT_THAT(s.error().message, HasSubstr("cannot come from git or the change under check"));
  repo.builder.remove(".kblaster/trees/" + std::string(40, 'a') + ".complete");
  repo.builder.write(".kblaster/cache/ceilings.json", "{}\n");
  EXPECT_THAT(repo.check(repo.builder.commit("plant the ceilings")).error().message,
              HasSubstr("tracks `.kblaster/cache`"));
}

TEST(StateFolder, ACommittedKbIsNoneOfChecksConcern) {
  StateRepo repo("kernels");
  repo.builder.write("kernels/.kblaster/kb.sqlite", "the team's KB\n");
  EXPECT_TRUE(repo.check(repo.builder.commit("commit the KB")).ok());
  repo.builder.write("kernels/.kblaster/kb.sqlite", "a newer KB\n");
  EXPECT_TRUE(repo.check(repo.builder.commit("update the KB")).ok());
  repo.builder.write(".kblaster/trees/x", "outside the kernel repository\n");
  EXPECT_TRUE(repo.check(repo.builder.commit("a folder check never uses")).ok());
  repo.builder.write("kernels/.kblaster/cache/objects/k.so", "planted\n");
  EXPECT_FALSE(repo.check(repo.builder.commit("plant an object")).ok());
}

// git writes every entry a checkout meets, so a malformed tree cannot hide a planted folder from
// the guard: not out of order (where git's binary search misses it), not as a link, not in a
// second folder of the kernel repository's name.
TEST(StateFolder, AMalformedTreeCannotHideAPlantedFolder) {
  StateRepo repo("sub");
  repo.builder.commit("base");
  testing::RawObjects raw(repo.dir.path());
  const std::string config = raw.blob("# config\n"), marker = raw.blob("planted\n");
  const std::string planted =
      raw.tree({{"40000", "trees", raw.tree({{"100644", "x.complete", marker}})}});
  const std::string kernels = raw.tree({{"100644", "k.cu", config},
                                        {"100644", "kblaster.toml", config},
                                        {"40000", ".kblaster", planted}});  // out of order
  EXPECT_THAT(
      repo.check(raw.commit(raw.tree({{"40000", "sub", kernels}}), "unsorted")).error().message,
      HasSubstr("tracks `.kblaster/trees`"));
  const std::string linked =
      raw.tree({{"120000", ".kblaster", raw.blob("/tmp")}, {"100644", "kblaster.toml", config}});
  EXPECT_THAT(
      repo.check(raw.commit(raw.tree({{"40000", "sub", linked}}), "a link")).error().message,
      HasSubstr("tracks `.kblaster` as a file, link or submodule"));
  const std::string clean = raw.tree({{"100644", "kblaster.toml", config}});
  const std::string only_planted = raw.tree({{"40000", ".kblaster", planted}});
  const Status twice = repo.check(
      raw.commit(raw.tree({{"40000", "sub", only_planted}, {"40000", "sub", clean}}), "sub twice"));
  ASSERT_FALSE(twice.ok());
  EXPECT_THAT(twice.error().message, HasSubstr("has 2 entries named `sub` in one folder"));
}

// On GitHub the checkout is the pull request's merge commit, not head: what its index tracks
// counts too, and a `.kblaster` that is a link on disk is refused.
TEST(StateFolder, TheCheckoutItselfMayNotTrackWhatCheckTrusts) {
  StateRepo repo("kernels");
  repo.builder.commit("base");
  auto check = [&] {
    auto git = GitRepo::open(repo.dir.path() / "kernels");
    EXPECT_TRUE(git.ok()) << git.error().message;
    return check_checkout_state(**git, repo.dir.path() / "kernels");
  };
  EXPECT_TRUE(check().ok()) << "no index yet";
  testing::RawObjects raw(repo.dir.path());
  raw.stage("kernels/.kblaster/kb.sqlite", "the team's KB\n");
  EXPECT_TRUE(check().ok()) << "a committed KB is none of check's concern";
  raw.stage("kernels/.kblaster/cache/objects/k.so", "planted\n");
  const Status planted = check();
  ASSERT_FALSE(planted.ok());
  EXPECT_THAT(planted.error().message,
              HasSubstr("the checkout tracks `.kblaster/cache/objects/k.so`"));

  StateRepo linked;
  linked.builder.commit("base");
  std::filesystem::create_directory_symlink("/tmp", linked.dir.path() / ".kblaster");
  auto git = GitRepo::open(linked.dir.path());
  ASSERT_TRUE(git.ok());
  EXPECT_THAT(check_checkout_state(**git, linked.dir.path()).error().message,
              HasSubstr(".kblaster is a symbolic link"));
}

// The trees folder tracked as an entry of its own (a link to a planted folder, say), or a link
// there on disk, is refused as what it holds would be (third review).
TEST(StateFolder, TheTreesFolderItselfMayNotBeTrackedOrALink) {
  StateRepo repo;
  repo.builder.commit("base");
  auto check = [&] {
    auto git = GitRepo::open(repo.dir.path());
    EXPECT_TRUE(git.ok()) << git.error().message;
    return check_checkout_state(**git, repo.dir.path());
  };
  std::filesystem::create_directories(repo.dir.path() / ".kblaster" / "planted");
  std::filesystem::create_directory_symlink(repo.dir.path() / ".kblaster" / "planted",
                                            repo.dir.path() / ".kblaster" / "cache");
  EXPECT_THAT(check().error().message, HasSubstr(".kblaster/cache is a symbolic link"));
  std::filesystem::remove(repo.dir.path() / ".kblaster" / "cache");
  testing::RawObjects(repo.dir.path()).stage(".kblaster/trees", "planted\n");
  EXPECT_THAT(check().error().message, HasSubstr("the checkout tracks `.kblaster/trees`"));
}

}  // namespace
}  // namespace kblaster
