// Optimization pull requests against the loopback GitHub behind Prism, from a real H200
// optimize result: one pull request opened through the git data API and updated by a rerun
// (same branch and number, a new commit), the 422 of a pull request a concurrent run opened
// first, a gain that needs a build setting left out, a base that moved on, a sweep's one
// pull request, and the whole path `optimize --publish` takes through the Publisher.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "cli/publish_flags.h"
#include "github/optimization_pr.h"
#include "github/publisher.h"
#include "h200_fixtures.h"
#include "report/optimization_pr_body.h"
#include "support/github_through_prism.h"

namespace kblaster {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::SizeIs;

const std::string kBranch = "kblaster/optimize/matmul_naive";
const std::string kSource = "examples/kernels/kernels/matmul_naive.cu";

class OptimizationPrThroughPrism : public testing::GitHubApiThroughPrism {
 protected:
  void SetUp() override {
    GitHubApiThroughPrism::SetUp();
    if (!prism) return;
    base_sha = github.push_commit("main", testing::example_base_files("examples/kernels/"));
  }

  Result<OptimizationPrReport> publish(const nlohmann::json& result) {
    return publish_optimization_prs(*api, result,
                                    {.base_branch = "", .body = optimization_pr_body});
  }

  std::string best_source() const { return result["kernels"][1]["best_source"]; }

  std::string base_sha;
  nlohmann::json result = testing::optimize_with_best_source();
};

TEST_F(OptimizationPrThroughPrism, OpensOnePullRequestAndARerunUpdatesTheSameBranchAndNumber) {
  auto first = publish(result);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_THAT(first->done, SizeIs(1));
  EXPECT_THAT(first->done[0], HasSubstr("optimization PR #1 opened for matmul_naive: "));
  EXPECT_THAT(first->notes,
              ElementsAre("optimization PR: softmax_slow left out: needs a build setting "
                          "(nvcc_flags: add \"-use_fast_math\"; no source form was made "
                          "(the result predates them))"));
  ASSERT_THAT(github.pulls(), SizeIs(1));
  const auto pull = github.pulls()[0];
  EXPECT_EQ(pull.head_ref, kBranch);
  EXPECT_EQ(pull.base_ref, "main");
  EXPECT_EQ(pull.title, "kblaster: matmul_naive 1.21x faster");
  EXPECT_THAT(pull.body, HasSubstr("1.21\u00d7 (1.207\u20131.212)"));
  EXPECT_THAT(pull.labels, ElementsAre("kblaster", "performance"));
  const auto first_tip = github.ref_sha("heads/" + kBranch);
  ASSERT_TRUE(first_tip);
  EXPECT_THAT(github.commit(*first_tip)->parents, ElementsAre(base_sha));
  auto files = github.files_at(kBranch);
  EXPECT_EQ(files[kSource], best_source()) << "the exact text verified";
  auto base_files = github.files_at("main");
  EXPECT_NE(base_files[kSource], best_source());
  files.erase(kSource), base_files.erase(kSource);
  EXPECT_EQ(files, base_files) << "nothing else changed";

  result["kernels"][1]["final_ab"]["reason"] = "FASTER again, on a rerun";
  auto again = publish(result);
  ASSERT_TRUE(again.ok()) << again.error().message;
  ASSERT_THAT(again->done, SizeIs(1));
  EXPECT_THAT(again->done[0], HasSubstr("optimization PR #1 updated for matmul_naive"));
  ASSERT_THAT(github.pulls(), SizeIs(1)) << "no duplicate";
  EXPECT_EQ(github.pulls()[0].number, pull.number);
  EXPECT_THAT(github.pulls()[0].body, HasSubstr("FASTER again, on a rerun"));
  const auto second_tip = github.ref_sha("heads/" + kBranch);
  ASSERT_TRUE(second_tip);
  EXPECT_NE(*second_tip, *first_tip) << "a new commit on the same branch";
  EXPECT_THAT(github.commit(*second_tip)->parents, ElementsAre(base_sha))
      << "made on the base again, the branch moved by force";
  EXPECT_EQ(github.files_at(kBranch)[kSource], best_source());
}

TEST_F(OptimizationPrThroughPrism, APullRequestAConcurrentRunOpenedFirstIsFoundAfterThe422) {
  github.before_request("POST /repos/acme/kernels/pulls",
                        [this] { github.open_pull(kBranch, "opened by a concurrent run", ""); });
  auto done = publish(result);
  ASSERT_TRUE(done.ok()) << done.error().message;
  ASSERT_THAT(done->done, SizeIs(1));
  EXPECT_THAT(done->done[0], HasSubstr("optimization PR #1 updated for matmul_naive"));
  ASSERT_THAT(github.pulls(), SizeIs(1)) << "no duplicate";
  EXPECT_EQ(github.pulls()[0].title, "kblaster: matmul_naive 1.21x faster");
  int unprocessable = 0;
  for (const auto& r : github.requests())
    unprocessable += r.method == "POST" && r.path.ends_with("/pulls") && r.status == 422;
  EXPECT_EQ(unprocessable, 1) << "GitHub said it already exists";
}

TEST_F(OptimizationPrThroughPrism, AKernelWhoseBaseFileChangedSinceIsLeftOutAndNothingIsWritten) {
  github.push_commit("main", {{kSource, "// rewritten by hand since\n"}});
  auto done = publish(result);
  ASSERT_TRUE(done.ok()) << done.error().message;
  EXPECT_THAT(done->done, SizeIs(0));
  EXPECT_THAT(done->notes,
              Contains(HasSubstr("optimization PR: matmul_naive left out: the base branch's source "
                                 "differs from the one optimized (main's " +
                                 kSource + " changed since the search read it")));
  EXPECT_THAT(github.pulls(), SizeIs(0));
  EXPECT_THAT(github.refs(), SizeIs(1)) << "only main";
  for (const auto& r : github.requests()) EXPECT_EQ(r.method, "GET") << r.path;
}

TEST_F(OptimizationPrThroughPrism,
       APerSweepConfigOnTheBaseMakesOnePullRequestListingWhatItLeftOut) {
  const std::string config = "examples/kernels/kblaster.toml";
  github.push_commit("main",
                     {{config, "[publish]\noptimization_prs = \"per_sweep\"\nlabels = []\n" +
                                   github.files_at("main")[config]}});
  auto done = publish(result);
  ASSERT_TRUE(done.ok()) << done.error().message;
  ASSERT_THAT(github.pulls(), SizeIs(1));
  const auto pull = github.pulls()[0];
  EXPECT_EQ(pull.head_ref, "kblaster/optimize/sweep");
  EXPECT_EQ(pull.title, "kblaster: 1 kernel faster, up to 1.21x");
  EXPECT_THAT(pull.labels, SizeIs(0));
  EXPECT_THAT(pull.body, HasSubstr("- **softmax\\_slow**: needs a build setting"));
}

TEST_F(OptimizationPrThroughPrism, ABadPublishTableOnTheBaseIsAConfigErrorNamingItsPlace) {
  const std::string config = "examples/kernels/kblaster.toml";
  github.push_commit("main", {{config, "[publish]\noptimization_prs = \"each\"\n"}});
  auto done = publish(result);
  ASSERT_FALSE(done.ok());
  EXPECT_EQ(done.error().kind, ErrorKind::config);
  EXPECT_EQ(done.error().where, "acme/kernels@main:" + config + ":2:20");
  EXPECT_THAT(github.pulls(), SizeIs(0));
}

// What `optimize --publish` does after its search: publish_with through a Publisher.
TEST_F(OptimizationPrThroughPrism, OptimizePublishsPathOpensThePullRequestAndSaysWhatItLeftOut) {
  std::ostringstream progress;
  SteadyClock clock;
  const auto env = [this](const std::string& name) -> std::optional<std::string> {
    if (name == "GITHUB_API_URL") return api_url();
    if (name == "GITHUB_REPOSITORY") return std::string("acme/kernels");
    if (name == "GITHUB_TOKEN") return github.options().token;
    return std::nullopt;
  };
  auto publisher =
      Publisher::open(PublisherOptions{}, PublishTarget{},
                      {.env = env, .clock = clock, .jitter_seed = 1, .progress = progress});
  ASSERT_TRUE(publisher.ok()) << publisher.error().message;
  ASSERT_TRUE(*publisher);
  auto done = publish_with(**publisher, {result});
  ASSERT_TRUE(done.ok()) << done.error().message;
  EXPECT_THAT(progress.str(), HasSubstr("published optimization PR #1 opened for matmul_naive: "));
  EXPECT_THAT(progress.str(), HasSubstr("optimization PR: softmax_slow left out: needs a build "
                                        "setting (nvcc_flags: add \"-use_fast_math\"; no "
                                        "source form was made (the result predates them))\n"));
  ASSERT_THAT(github.pulls(), SizeIs(1));
  EXPECT_EQ(github.files_at(kBranch)[kSource], best_source());
  EXPECT_THAT(github.check_runs(), SizeIs(0)) << "an optimize result makes no check run";
}

}  // namespace
}  // namespace kblaster
