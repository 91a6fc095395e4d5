// `kblaster check --event --publish` through the real binary, on a pull_request event,
// against the loopback GitHub behind Prism: one sticky comment, edited on a rerun, and a
// check run on the PR's head created in progress and completed with an annotation on the
// kernel that broke. No GPU is needed: a head that does not compile is found by building.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "cli_run.h"
#include "git/repo_builder.h"
#include "scoped_env.h"
#include "support/github_through_prism.h"
#include "support/webhook_payloads.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::SizeIs;

constexpr const char* kConfig = R"TOML(
[project]
arch = "sm_90"

[[kernel]]
name = "scale"
source = "k/scale.cu"
launcher = "scale"
args = [ { name = "o", type = "f32", shape = "4", role = "out" } ]
)TOML";

std::string scale_source(const std::string& body) {
  return "__global__ void k(float* o) { " + body +
         " }\n\nvoid scale(float* o) {\n  k<<<1, 4>>>(o);\n}\n";
}

class CheckPublishCli : public testing::GitHubThroughPrism {
 protected:
  void SetUp() override {
    GitHubThroughPrism::SetUp();
    if (!prism) return;
    git.write("kblaster.toml", kConfig);
    git.write("k/scale.cu", scale_source("o[threadIdx.x] = 2.0f;"));
    base = git.commit("base");
    git.write("k/scale.cu", scale_source("o[threadIdx.x] = 2.0f +;"));  // does not compile
    head = git.commit("head");

    github.mirror_commit("broken-scale", head);
    testing::PullFacts pull;
    pull.number = github.open_pull("broken-scale");
    pull.base_sha = base;
    pull.head_sha = head;
    pull.head_ref = "broken-scale";
    number = pull.number;
    std::ofstream(event) << testing::pull_request_event(testing::GitHubSite(), pull,
                                                        testing::PullRequestAction::synchronize,
                                                        base)
                                .dump();
  }

  testing::CliResult check(std::vector<std::string> extra = {}) const {
    testing::ScopedEnv env({{"GITHUB_EVENT_NAME", "pull_request"},
                            {"GITHUB_EVENT_PATH", event.string()},
                            {"GITHUB_API_URL", api_url()},
                            {"GITHUB_REPOSITORY", "acme/kernels"},
                            {"GITHUB_TOKEN", github.options().token}});
    std::vector<std::string> args = {
        "check",       repo.path().string(), "--event", "--publish", "--json",
        "--cache-dir", cache.path().string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::run_kblaster(args);
  }

  testing::TempDir repo, cache, files;
  testing::RepoBuilder git{repo.path()};
  std::filesystem::path event = files.path() / "event.json";
  std::string base, head;
  int number = 0;
};

TEST_F(CheckPublishCli, PostsOneCommentEditsItOnARerunAndCompletesACheckRunWithAnnotations) {
  auto first = check();
  EXPECT_EQ(first.exit_code, 1) << first.err;
  EXPECT_EQ(nlohmann::json::parse(first.out)["kernels"][0]["verdict"], "BUILD_FAILED");
  EXPECT_THAT(first.err, HasSubstr("published check run kblaster / check: in progress on"));
  EXPECT_THAT(first.err, HasSubstr("published comment: created"));
  EXPECT_THAT(first.err, HasSubstr("published check run: kblaster / check failure on"));
  ASSERT_THAT(github.comments(number), SizeIs(1));
  EXPECT_THAT(github.comments(number)[0].body, HasSubstr("BUILD_FAILED"));
  const std::int64_t comment = github.comments(number)[0].id;

  auto runs = github.check_runs();
  ASSERT_THAT(runs, SizeIs(1));
  EXPECT_EQ(runs[0].head_sha, head) << "the PR's head, not a merge commit";
  EXPECT_EQ(runs[0].status, "completed");
  EXPECT_EQ(runs[0].conclusion, "failure");
  EXPECT_EQ(runs[0].writes, 2) << "created in progress, then completed";
  ASSERT_THAT(runs[0].annotations, SizeIs(1));
  EXPECT_EQ(runs[0].annotations[0]["path"], "k/scale.cu");
  EXPECT_EQ(runs[0].annotations[0]["start_line"], 3) << "the launcher's definition";
  EXPECT_EQ(runs[0].annotations[0]["annotation_level"], "failure");

  auto second = check();
  EXPECT_EQ(second.exit_code, 1) << second.err;
  EXPECT_THAT(second.err, HasSubstr("published comment: edited"));
  ASSERT_THAT(github.comments(number), SizeIs(1)) << "edited in place, never posted twice";
  EXPECT_EQ(github.comments(number)[0].id, comment);
  for (const auto& r : {first, second}) {
    EXPECT_THAT(r.err, ::testing::Not(HasSubstr(github.options().token)));
    EXPECT_THAT(r.out, ::testing::Not(HasSubstr(github.options().token)));
  }
}

// Two workflows (say, one per GPU model) each require their own check run by name.
TEST_F(CheckPublishCli, CheckNameNamesTheCheckRunAndAnUnusableNameIsAUsageError) {
  auto r = check({"--check-name", "kblaster / H200"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("published check run kblaster / H200: in progress on"));
  EXPECT_THAT(r.err, HasSubstr("published check run: kblaster / H200 failure on"));
  auto runs = github.check_runs();
  ASSERT_THAT(runs, SizeIs(1));
  EXPECT_EQ(runs[0].name, "kblaster / H200");
  EXPECT_EQ(runs[0].status, "completed") << "the run started is the one completed";

  for (const std::string bad : {std::string(), std::string(101, 'x'), std::string("a\nb")}) {
    auto refused = check({"--check-name", bad});
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_THAT(refused.err, HasSubstr("--check-name: "));
  }
  EXPECT_THAT(github.check_runs(), SizeIs(1)) << "nothing was sent for a refused name";
}

// kblaster fails after its check run was started (here: a --report directory it cannot
// create): the run is completed as failed, saying why, rather than left in progress.
TEST_F(CheckPublishCli, WhenKblasterFailsItsCheckRunIsMarkedFailedWithTheReason) {
  auto r = check({"--report", "/proc/kblaster-report"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("published check run kblaster / check: failed ("));
  const auto runs = github.check_runs();
  ASSERT_THAT(runs, SizeIs(1));
  EXPECT_EQ(runs[0].status, "completed");
  EXPECT_EQ(runs[0].conclusion, "failure");
  EXPECT_EQ(runs[0].title, "kblaster failed");
  EXPECT_THAT(runs[0].summary.value_or(""), HasSubstr("/proc/kblaster-report"));
  EXPECT_THAT(github.comments(number), SizeIs(0)) << "no verdicts to comment on";
}

TEST_F(CheckPublishCli, AFailedPublishExitsFiveAfterTheResultIsPrinted) {
  github.set_write_access(testing::WriteAccess::denied);
  auto r = check();
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_THAT(r.err, HasSubstr("`permissions:` with `checks: write`"));
  EXPECT_EQ(nlohmann::json::parse(r.out)["kind"], "check") << "the result is not lost";
  prism->take_violations();
}

}  // namespace
}  // namespace kblaster
