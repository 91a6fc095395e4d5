// `kblaster plan --base --head` and `--event` through the real binary, on a
// real git repository built with libgit2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "cli/revision_flags.h"
#include "cli_run.h"
#include "git/repo_builder.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_kblaster;

const char* kConfig = R"TOML([project]
include_dirs = ["include"]

[[kernel]]
name = "uses_header"
source = "k/a.cu"
launcher = "a"
args = [ { name = "o", type = "f32", shape = "4", role = "out" } ]

[[kernel]]
name = "standalone"
source = "k/b.cu"
launcher = "b"
args = [ { name = "o", type = "f32", shape = "4", role = "out" } ]
)TOML";

// A repository whose second commit edits the header only `uses_header` includes.
struct ChangedRepo {
  testing::TempDir dir;
  testing::RepoBuilder git{dir.path()};
  std::string base, head;
  ChangedRepo() {
    git.write("kblaster.toml", kConfig);
    git.write("include/common.cuh", "#pragma once\n#define SCALE 2\n");
    git.write("k/a.cu", "#include \"common.cuh\"\nvoid a(float*) {}\n");
    git.write("k/b.cu", "void b(float*) {}\n");
    git.write("README.md", "kernels\n");
    base = git.commit("base");
    git.write("include/common.cuh", "#pragma once\n#define SCALE 3\n");
    git.write("README.md", "kernels, faster\n");
    head = git.commit("head");
  }
};

TEST(PlanChangesCli, ListsTheKernelsARangeHitsAndWhy) {
  ChangedRepo repo;
  auto r = run_kblaster(
      {"plan", "--json", repo.dir.path().string(), "--base", repo.base, "--head", repo.head});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["hits"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["hits"][0]["kernel"], "uses_header");
  EXPECT_EQ(j["hits"][0]["why"], "include_changed");
  EXPECT_EQ(j["hits"][0]["because"], nlohmann::json::array({"include/common.cuh"}));
  EXPECT_EQ(j["hits"][0]["include_chains"]["include/common.cuh"],
            nlohmann::json::array({"k/a.cu", "include/common.cuh"}));
  EXPECT_EQ(j["not_hit"], nlohmann::json::array({"standalone"}));
  EXPECT_EQ(j["changed_paths"].size(), 2u);

  auto text =
      run_kblaster({"plan", repo.dir.path().string(), "--base", repo.base, "--head", repo.head});
  EXPECT_THAT(text.out, HasSubstr("2 file(s) changed, 1 of 2 kernel(s) hit"));
  EXPECT_THAT(text.out, HasSubstr("not hit: standalone"));
  EXPECT_THAT(text.out, Not(HasSubstr(" through "))) << "a direct include needs no chain";
}

TEST(PlanChangesCli, AHeaderReachedThroughAnotherShowsTheIncludeChain) {
  testing::TempDir dir;
  testing::RepoBuilder git{dir.path()};
  git.write("kblaster.toml", kConfig);
  git.write("include/common.cuh", "#pragma once\n#include \"inner.cuh\"\n");
  git.write("include/inner.cuh", "#pragma once\n#define SCALE 2\n");
  git.write("k/a.cu", "#include \"common.cuh\"\nvoid a(float*) {}\n");
  git.write("k/b.cu", "void b(float*) {}\n");
  const auto base = git.commit("base");
  git.write("include/inner.cuh", "#pragma once\n#define SCALE 3\n");
  const auto head = git.commit("head");
  auto text = run_kblaster({"plan", dir.path().string(), "--base", base, "--head", head});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("include/inner.cuh through k/a.cu -> include/common.cuh\n"));
  auto json = run_kblaster({"plan", "--json", dir.path().string(), "--base", base, "--head", head});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["hits"][0]["include_chains"]["include/inner.cuh"],
            nlohmann::json::array({"k/a.cu", "include/common.cuh", "include/inner.cuh"}));
}

TEST(PlanChangesCli, MissingBaseIsAUsageErrorNamingIt) {
  ChangedRepo repo;
  auto r = run_kblaster({"plan", repo.dir.path().string(), "--base",
                         "0123456789abcdef0123456789abcdef01234567", "--head", repo.head});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("base revision"));
}

TEST(PlanChangesCli, ReadsBaseAndHeadFromAPullRequestEvent) {
  ChangedRepo repo;
  const auto event = repo.dir.path() / "event.json";
  repo.dir.write("event.json", R"({"pull_request":{"base":{"sha":")" + repo.base +
                                   R"("},"head":{"sha":")" + repo.head + R"("}}})");
  ::setenv("GITHUB_EVENT_PATH", event.c_str(), 1);
  ::setenv("GITHUB_EVENT_NAME", "pull_request", 1);
  auto r = run_kblaster({"plan", "--json", repo.dir.path().string(), "--event"});
  ::unsetenv("GITHUB_EVENT_PATH");
  ::unsetenv("GITHUB_EVENT_NAME");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["base"], repo.base);
  EXPECT_EQ(j["head"], repo.head);
  EXPECT_THAT(j["source"].get<std::string>(), HasSubstr("pull_request event"));
  EXPECT_EQ(j["hits"].size(), 1u);
}

TEST(RequestedRange, ComesFromFlagsOrTheEventAndRejectsHalfARange) {
  auto no_env = [](const std::string&) { return std::optional<std::string>(); };
  auto no_file = [](const std::string&) { return std::optional<std::string>(); };
  RevisionFlags none;
  auto plain = requested_range(none, no_env, no_file);
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->has_value());

  RevisionFlags only_base;
  only_base.base = "main";
  auto range = requested_range(only_base, no_env, no_file);
  ASSERT_TRUE(range.ok());
  EXPECT_EQ((*range)->head, "HEAD");

  RevisionFlags only_head;
  only_head.head = "HEAD";
  EXPECT_FALSE(requested_range(only_head, no_env, no_file).ok());

  RevisionFlags event;
  event.from_event = true;
  auto missing = requested_range(event, no_env, no_file);
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().message, HasSubstr("$GITHUB_EVENT_PATH"));

  auto env = [](const std::string& n) {
    return std::optional<std::string>(n == "GITHUB_EVENT_NAME" ? "push" : "/e.json");
  };
  auto file = [](const std::string&) {
    return std::optional<std::string>(
        R"({"before":"0000000000000000000000000000000000000000","after":"abc"})");
  };
  auto push = requested_range(event, env, file);
  ASSERT_TRUE(push.ok()) << push.error().message;
  EXPECT_FALSE((*push)->base.has_value());
  EXPECT_EQ((*push)->head, "abc");
}

}  // namespace
}  // namespace kblaster
