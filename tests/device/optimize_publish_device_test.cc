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
  // optimize --publish on `kernels` with seed 7, breadth 4, depth 3 and 90 s per kernel.
  testing::CliResult optimize(const std::vector<std::string>& kernels = {"matmul_naive"}) const {
    testing::ScopedEnv env({{"GITHUB_API_URL", github.url()},
                            {"GITHUB_REPOSITORY", "acme/kernels"},
                            {"GITHUB_TOKEN", github.options().token}});
    std::vector<std::string> args = {"optimize", "examples/kernels"};
    for (const auto& k : kernels) args.insert(args.end(), {"--kernel", k});
    args.insert(args.end(),
                {"--search-seed", "7", "--breadth", "4", "--depth", "3", "--max-time", "90",
                 "--json", "--publish", "--kb", (work.path() / "kb.sqlite").string(), "--out",
                 (work.path() / "out").string()});
    return testing::run_kblaster(args);
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
  // Issue 22, point 9: every child is checked against the reference outputs kept by seed, so
  // the search runs each seed's reference once per size and reuses it for the rest.
  EXPECT_THAT(first.err, ::testing::ContainsRegex("optimize: references: ran [0-9]+ time\\(s\\) "
                                                  "in [0-9.]+ s, reused [1-9][0-9]* time"));
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

// softmax_slow's best at seed 7 needed -use_fast_math on the H200 (2026-12-02 fixtures), and
// scale_rows's a launcher-argument block size. The first goes in as its source form, with
// __expf in the source, verified and timed on its own; the second has no source form and is
// left out, saying why.
TEST_F(OptimizePublishOnDevice, AFlagGainGoesInAsItsVerifiedSourceFormAndALauncherArgumentDoesNot) {
  auto files = testing::example_base_files("examples/kernels/");
  files["examples/kernels/kernels/scale_rows.cu"] =
      testing::read_text(testing::examples_dir() / "kernels/scale_rows.cu");
  github.push_commit("main", files);
  auto run = optimize({"softmax_slow", "scale_rows"});
  keep("optimize_publish_source_form", run);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto result = nlohmann::json::parse(run.out);
  const auto& softmax = result["kernels"][0];
  ASSERT_FALSE(softmax["settings_needed"].empty()) << softmax["path"].dump();
  ASSERT_EQ(softmax["speedup"]["verdict"], "FASTER");
  const auto& form = softmax["source_form"];
  ASSERT_EQ(form["status"], "verified") << form.dump(2).substr(0, 2000);
  EXPECT_THAT(form["source"].get<std::string>(), HasSubstr("__expf("));
  EXPECT_THAT(run.err, HasSubstr("source form: nvcc_flags \"-use_fast_math\""));
  if (form["speedup"]["verdict"] == "FASTER") {
    EXPECT_THAT(run.err, HasSubstr("published optimization PR #1 opened for softmax_slow: "));
    ASSERT_THAT(github.pulls(), SizeIs(1));
    EXPECT_EQ(github.files_at(
                  "kblaster/optimize/softmax_slow")["examples/kernels/kernels/softmax_slow.cu"],
              form["source"]);
    EXPECT_THAT(github.pulls()[0].body, HasSubstr("### Build settings written as source"));
    if (const char* dir = std::getenv("KBLASTER_DEVICE_LOG_DIR"))
      std::ofstream(std::filesystem::path(dir) / "optimize_publish_source_form_pr_body.md")
          << github.pulls()[0].body;
  } else {
    EXPECT_THAT(run.err, HasSubstr("softmax_slow left out: needs a build setting"));
  }
  const auto& scale = result["kernels"][1];
  if (!scale["settings_needed"].empty() && scale["speedup"]["verdict"] == "FASTER") {
    EXPECT_EQ(scale["source_form"]["status"], "incomplete");
    EXPECT_THAT(run.err, HasSubstr("scale_rows left out: needs a build setting (args: block_size"));
  }
  if (const char* dir = std::getenv("KBLASTER_DEVICE_LOG_DIR"))
    std::ofstream(std::filesystem::path(dir) / "optimize_publish_source_form.json") << run.out;
}

}  // namespace
}  // namespace kblaster
