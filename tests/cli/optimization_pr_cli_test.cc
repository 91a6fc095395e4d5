// Optimization pull requests through the real binary: `kblaster publish` of a real H200
// optimize result opens one pull request for the source change, updates it on a rerun,
// and says why the gain that needs -use_fast_math is left out; a result without the
// verified text opens none; `optimize --publish` without a GPU publishes nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "cli_run.h"
#include "gpu/device_probe.h"
#include "h200_fixtures.h"
#include "scoped_env.h"
#include "support/github_through_prism.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::SizeIs;

class OptimizationPrCli : public testing::GitHubThroughPrism {
 protected:
  void SetUp() override {
    GitHubThroughPrism::SetUp();
    if (!prism) return;
    base_sha = github.push_commit("main", testing::example_base_files("examples/kernels/"));
  }

  testing::CliResult kblaster(std::vector<std::string> args) const {
    testing::ScopedEnv env({{"GITHUB_API_URL", api_url()},
                            {"GITHUB_REPOSITORY", "acme/kernels"},
                            {"GITHUB_TOKEN", github.options().token}});
    return testing::run_kblaster(args);
  }

  std::string saved(const nlohmann::json& result) const {
    const auto path = dir.path() / "optimize.json";
    std::ofstream(path) << result.dump(2);
    return path.string();
  }

  testing::TempDir dir;
  std::string base_sha;
};

TEST_F(OptimizationPrCli, PublishOfARealOptimizeResultOpensOnePullRequestAndARerunUpdatesIt) {
  const auto result = testing::optimize_with_best_source();
  const std::string file = saved(result);
  auto first = kblaster({"publish", file, "--sha", base_sha});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_THAT(first.err, HasSubstr("published optimization PR #1 opened for matmul_naive: "));
  EXPECT_THAT(first.err, HasSubstr("optimization PR: softmax_slow left out: needs a build setting "
                                   "(nvcc_flags: add \"-use_fast_math\"; no source form was "
                                   "made (the result predates them))\n"));
  ASSERT_THAT(github.pulls(), SizeIs(1));
  const std::string branch = "kblaster/optimize/matmul_naive";
  const auto tip = github.ref_sha("heads/" + branch);
  EXPECT_EQ(github.files_at(branch)["examples/kernels/kernels/matmul_naive.cu"],
            result["kernels"][1]["best_source"]);

  auto again = kblaster({"publish", file, "--sha", base_sha});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.err, HasSubstr("published optimization PR #1 updated for matmul_naive: "));
  EXPECT_THAT(github.pulls(), SizeIs(1));
  EXPECT_NE(github.ref_sha("heads/" + branch), tip) << "a new commit on the same branch";
}

TEST_F(OptimizationPrCli, AResultWithoutTheVerifiedTextOpensNoneAndSaysSo) {
  const auto result = testing::h200_fixture("optimize_softmax_slow_matmul_naive.json");
  auto r = kblaster({"publish", saved(result), "--sha", base_sha});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("optimization PR: matmul_naive left out: the result does not "
                               "carry the verified source"));
  EXPECT_THAT(github.pulls(), SizeIs(0));
  EXPECT_THAT(github.requests(), SizeIs(0)) << "nothing to ask GitHub";
}

TEST_F(OptimizationPrCli, ADryRunSaysWhichKernelsQualifyAndSendsNothing) {
  const auto requests = dir.path() / "requests.jsonl";
  auto r = kblaster({"publish", saved(testing::optimize_with_best_source()), "--sha", base_sha,
                     "--dry-run", requests.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("optimization PR: matmul_naive qualifies; a dry run reads nothing"));
  EXPECT_THAT(github.requests(), SizeIs(0));
}

TEST_F(OptimizationPrCli, OptimizePublishWithoutAGpuPublishesNothingAndSaysWhy) {
  if (CudaDriverProbe().probe().present) GTEST_SKIP() << "a CUDA device is present";
  auto r = kblaster({"optimize", "examples/kernels", "--kernel", "matmul_naive", "--publish"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, HasSubstr("optimization PR: matmul_naive left out: not searched (no CUDA "
                               "device)"));
  EXPECT_THAT(github.pulls(), SizeIs(0));
  EXPECT_THAT(r.err, Not(HasSubstr("published optimization PR")));
}

}  // namespace
}  // namespace kblaster
