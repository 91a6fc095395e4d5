// `kblaster optimize --publish` on a real GPU, publishing to the loopback GitHub
// (tests/support/fake_github.h): the search on matmul_naive (seed 7, which found a pure
// source change on the H200 before: its block's 16 made 32) opens one optimization pull
// request carrying the verified source, and a rerun updates that PR. Labelled `gpu`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "h200_fixtures.h"
#include "on_device.h"
#include "scoped_env.h"
#include "support/fake_github.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::SizeIs;

class OptimizePublishOnDevice : public testing::OnDevice {
 protected:
  testing::CliResult optimize() const {
    testing::ScopedEnv env({{"GITHUB_API_URL", github.url()},
                            {"GITHUB_REPOSITORY", "acme/kernels"},
                            {"GITHUB_TOKEN", github.options().token}});
    return testing::run_kblaster(
        {"optimize", "examples/kernels", "--kernel", "matmul_naive", "--search-seed", "7",
         "--breadth", "4", "--depth", "3", "--max-time", "90", "--json", "--publish", "--kb",
         (work.path() / "kb.sqlite").string(), "--out", (work.path() / "out").string()});
  }

  testing::TempDir work;
  testing::FakeGitHub github;
};

TEST_F(OptimizePublishOnDevice, AVerifiedSourceChangeOpensOnePullRequestAndARerunUpdatesIt) {
  github.push_commit("main", testing::example_base_files("examples/kernels/"));
  auto first = optimize();
  keep("optimize_publish", first);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto result = nlohmann::json::parse(first.out);
  const auto& kernel = result["kernels"][0];
  ASSERT_TRUE(kernel.contains("best_source")) << kernel.dump(2).substr(0, 2000);
  EXPECT_THAT(first.err, HasSubstr("published optimization PR #1 opened for matmul_naive: "));
  ASSERT_THAT(github.pulls(), SizeIs(1));
  const std::string branch = "kblaster/optimize/matmul_naive";
  EXPECT_EQ(github.files_at(branch)["examples/kernels/kernels/matmul_naive.cu"],
            kernel["best_source"]);
  if (const char* dir = std::getenv("KBLASTER_DEVICE_LOG_DIR"))
    std::ofstream(std::filesystem::path(dir) / "optimize_publish_pr_body.md")
        << github.pulls()[0].body;

  auto again = optimize();
  keep("optimize_publish_rerun", again);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(again.err, HasSubstr("published optimization PR #1 updated for matmul_naive: "));
  EXPECT_THAT(github.pulls(), SizeIs(1)) << "the rerun updates its PR, never a second";
  for (const auto& r : {first, again})
    EXPECT_THAT(r.err + r.out, ::testing::Not(HasSubstr(github.options().token)));
}

}  // namespace
}  // namespace kblaster
