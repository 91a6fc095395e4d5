// `kblaster plan --base --head` and `--event` through the real binary, on a
// real git repository built with libgit2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/revision_flags.h"
#include "cli_run.h"
#include "git/kernel_repo_fixture.h"
#include "git/repo_builder.h"
#include "result_schema.h"
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

TEST(PlanChangesCli, ALongKernelNameDoesNotRunIntoItsReason) {
  testing::TempDir dir;
  testing::RepoBuilder git{dir.path()};
  const std::string name = "a_kernel_name_well_past_the_twenty_characters_of_a_column";
  std::string config = kConfig;
  config.replace(config.find("uses_header"), std::string("uses_header").size(), name);
  git.write("kblaster.toml", config);
  git.write("include/common.cuh", "#pragma once\n");
  git.write("k/a.cu", "#include \"common.cuh\"\nvoid a(float*) {}\n");
  git.write("k/b.cu", "void b(float*) {}\n");
  const auto base = git.commit("base");
  git.write("include/common.cuh", "#pragma once\n#define X 1\n");
  const auto head = git.commit("head");
  auto text = run_kblaster({"plan", dir.path().string(), "--base", base, "--head", head});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("  " + name + "  include_changed"));
}

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
  EXPECT_EQ(j["kind"], "plan");
  EXPECT_EQ(j["mode"], "changes");
  EXPECT_EQ(j["provenance"]["base_sha"], repo.base);
  EXPECT_EQ(j["provenance"]["head_sha"], repo.head);
  testing::TempDir dir;
  EXPECT_TRUE(testing::is_valid_result(j, "plan", dir));
  j["hits"][0]["why"] = "touched";
  j["changed_paths"][0]["kind"] = "copied";
  EXPECT_TRUE(testing::is_rejected_naming(
      j, {"hits/0/why: 'touched' is not one of", "changed_paths/0/kind: 'copied' is not one of"},
      dir));

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

TEST(PlanChangesCli, AnOverlongRevisionIsAUsageErrorNamingTheLimit) {
  ChangedRepo repo;
  auto r = run_kblaster(
      {"plan", repo.dir.path().string(), "--base", std::string(4000, 'a'), "--head", "HEAD"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("base revision `aaaa"));
  EXPECT_THAT(r.err, HasSubstr("is 4000 characters long; a revision may have at most 256"));
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

const char* const kKernels[] = {"alpha", "beta", "gamma", "delta"};

// kblaster.toml's [[kernel]] tables for kKernels, delta's left out with `with_delta` off.
std::string four_kernels(bool with_delta = true) {
  std::string config;
  for (const std::string k : kKernels)
    if (with_delta || k != "delta") config += testing::kernel_table(k, "k/" + k + ".cu");
  return config;
}

// A kernel repository in `sub` of a git repository ("" for its root), its files
// committed and also written to the work tree, so plain `plan` reads head's files.
struct KernelRepo {
  testing::TempDir dir;
  testing::RepoBuilder git{dir.path()};
  std::string sub;
  explicit KernelRepo(std::string subdir = "") : sub(std::move(subdir)) {}

  void put(const std::string& path, const std::string& text) {
    const std::string at = sub.empty() ? path : sub + "/" + path;
    git.write(at, text);
    dir.write(at, text);
  }
  // kblaster.toml as `config`, and the sources of kKernels.
  void put_kernels(const std::string& config) {
    put("kblaster.toml", config);
    for (const std::string k : kKernels) put("k/" + k + ".cu", testing::kernel_source(k, ""));
  }
  // The kernel repository as the user names it: relative to the directory the CLI runs in.
  std::string repo() const {
    return std::filesystem::relative(dir.path() / sub, testing::source_dir()).string();
  }
  std::string config_file() const {
    return (std::filesystem::path(repo()) / "kblaster.toml").string();
  }
};

// The second commit edits alpha's and beta's sources and deletes delta; gamma is untouched.
struct SeveralKernelsHit : KernelRepo {
  std::string base, head;
  SeveralKernelsHit() {
    put_kernels(four_kernels());
    base = git.commit("base");
    put("kblaster.toml", four_kernels(false));
    git.remove("k/delta.cu");
    std::filesystem::remove(dir.path() / "k/delta.cu");
    put("k/alpha.cu", testing::kernel_source("alpha", "// faster\n"));
    put("k/beta.cu", testing::kernel_source("beta", "// faster\n"));
    head = git.commit("head");
  }
  // `command` on the range, then `flags`: REPO must come before --kernel, which takes
  // every word that follows it.
  std::vector<std::string> range(const std::string& command,
                                 const std::vector<std::string>& flags) const {
    std::vector<std::string> args{command, repo(), "--base", base, "--head", head};
    args.insert(args.end(), flags.begin(), flags.end());
    return args;
  }
};

TEST(PlanChangesCli, WithoutKernelListsEveryKernelTheRangeHits) {
  SeveralKernelsHit repo;
  auto r = run_kblaster(repo.range("plan", {"--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["hits"].size(), 3u) << j.dump(2);
  EXPECT_EQ(j["hits"][0]["kernel"], "alpha");
  EXPECT_EQ(j["hits"][1]["kernel"], "beta");
  EXPECT_EQ(j["hits"][2]["kernel"], "delta");
  EXPECT_EQ(j["hits"][2]["why"], "deleted");
  EXPECT_EQ(j["not_hit"], nlohmann::json::array({"gamma"}));
}

TEST(PlanChangesCli, KernelKeepsOnlyTheNamedKernelsAndReportsTheOnesNotHit) {
  SeveralKernelsHit repo;
  auto r = run_kblaster(repo.range("plan", {"--json", "--kernel", "beta", "--kernel", "gamma"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["hits"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["hits"][0]["kernel"], "beta");
  EXPECT_EQ(j["not_hit"], nlohmann::json::array({"gamma"}));

  auto text = run_kblaster(repo.range("plan", {"--kernel", "gamma", "--kernel", "beta"}));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("1 of 2 kernel(s) hit"));
  EXPECT_THAT(text.out, ::testing::ContainsRegex("\n  beta +source_changed"));
  EXPECT_THAT(text.out, HasSubstr("not hit: gamma\n"));
  EXPECT_THAT(text.out, Not(HasSubstr("alpha")));
  EXPECT_THAT(text.out, Not(HasSubstr("delta")));
}

TEST(PlanChangesCli, AKernelNamedButNotHitIsListedAsNotHit) {
  SeveralKernelsHit repo;
  auto r = run_kblaster(repo.range("plan", {"--json", "--kernel", "gamma"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["hits"].empty()) << j.dump(2);
  EXPECT_EQ(j["not_hit"], nlohmann::json::array({"gamma"}));
}

TEST(PlanChangesCli, AKernelThatIsNoKernelAtHeadIsTheUsageErrorOfPlainPlan) {
  SeveralKernelsHit repo;
  const std::string message = "--kernel nosuch: no such kernel (kernels: alpha, beta, gamma)";
  auto plain = run_kblaster({"plan", repo.repo(), "--kernel", "nosuch"});
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_THAT(plain.err, HasSubstr(message));

  auto ranged = run_kblaster(repo.range("plan", {"--kernel", "nosuch"}));
  EXPECT_EQ(ranged.exit_code, 2) << ranged.out;
  EXPECT_TRUE(ranged.out.empty()) << ranged.out;
  EXPECT_THAT(ranged.err, HasSubstr(message + " (at head revision " + repo.head.substr(0, 7)));

  auto typo = run_kblaster(repo.range("plan", {"--kernel", "betta"}));
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_THAT(typo.err, HasSubstr("--kernel betta: no such kernel; did you mean `beta`?"));

  // delta is hit (deleted) but is no kernel at head, so it cannot be named.
  auto deleted = run_kblaster(repo.range("plan", {"--json", "--kernel", "delta"}));
  EXPECT_EQ(deleted.exit_code, 2) << deleted.out;
  EXPECT_THAT(deleted.err, HasSubstr("--kernel delta: no such kernel"));
}

// Its head's kblaster.toml has an error; the kernel repository is `sub/` of the git repository.
struct BadConfigInSubdir : KernelRepo {
  std::string base, head;
  explicit BadConfigInSubdir(const std::string& bad_config) : KernelRepo("sub") {
    put_kernels(four_kernels());
    base = git.commit("base");
    put("kblaster.toml", bad_config);
    head = git.commit("head");
  }
};

// Plain `plan` and `plan --base --head` print the same error, which names the file
// as it opens from where kblaster ran; the range adds the revision it read.
void expect_same_error_with_and_without_a_range(const BadConfigInSubdir& repo,
                                                const std::string& location) {
  auto plain = run_kblaster({"plan", repo.repo()});
  EXPECT_EQ(plain.exit_code, 2);
  EXPECT_THAT(plain.err, HasSubstr("kblaster: error: " + location));
  auto ranged = run_kblaster({"plan", repo.repo(), "--base", repo.base, "--head", repo.head});
  EXPECT_EQ(ranged.exit_code, 2);
  ASSERT_FALSE(plain.err.empty());
  EXPECT_EQ(ranged.err, plain.err.substr(0, plain.err.size() - 1) + " (at head revision " +
                            repo.head.substr(0, 7) + ")\n");
}

TEST(PlanChangesCli, AConfigErrorAtHeadNamesTheFileAsPlainPlanDoes) {
  BadConfigInSubdir repo("[project]\narch = 90\n\n" + four_kernels());
  const std::string file = repo.config_file();
  expect_same_error_with_and_without_a_range(repo, file + ":2:");
}

TEST(PlanChangesCli, ADuplicateKernelNamesBothPlacesAsPlainPlanDoes) {
  BadConfigInSubdir repo(four_kernels() + testing::kernel_table("beta", "k/gamma.cu"));
  const std::string file = repo.config_file();
  expect_same_error_with_and_without_a_range(repo, file + ":");
  auto r = run_kblaster({"plan", repo.repo(), "--base", repo.base, "--head", repo.head});
  EXPECT_THAT(r.err, HasSubstr("declared twice; first at " + file + ":"));
}

TEST(PlanChangesCli, ABaseConfigErrorNamesTheFileAsPlainPlanDoes) {
  KernelRepo repo("sub");
  repo.put_kernels("[project]\narch = 90\n\n" + four_kernels());
  const auto base = repo.git.commit("base");
  repo.put("kblaster.toml", four_kernels());
  const auto head = repo.git.commit("head");
  auto r = run_kblaster({"plan", repo.repo(), "--base", base, "--head", head});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string file = repo.config_file();
  EXPECT_THAT(r.out, HasSubstr("the base's config did not load (" + file + ":2:"));
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

  RevisionFlags only_merge_base;
  only_merge_base.merge_base = true;
  auto alone = requested_range(only_merge_base, no_env, no_file);
  ASSERT_FALSE(alone.ok()) << "--merge-base alone was silently ignored";
  EXPECT_EQ(alone.error().message, "--merge-base needs --base (or --event)");

  RevisionFlags event;
  event.from_event = true;
  auto missing = requested_range(event, no_env, no_file);
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().message, HasSubstr("$GITHUB_EVENT_PATH"));

  auto env = [](const std::string& n) {
    return std::optional<std::string>(n == "GITHUB_EVENT_NAME" ? "push" : "/e.json");
  };
  auto file = [](const std::string&) {
    return std::optional<std::string>(R"({"before":"0000000000000000000000000000000000000000",)"
                                      R"("after":"abcabcabcabcabcabcabcabcabcabcabcabcabca"})");
  };
  auto push = requested_range(event, env, file);
  ASSERT_TRUE(push.ok()) << push.error().message;
  EXPECT_FALSE((*push)->base.has_value());
  EXPECT_EQ((*push)->head, "abcabcabcabcabcabcabcabcabcabcabcabcabca");
}

}  // namespace
}  // namespace kblaster
