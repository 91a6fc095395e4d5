// The GitHub Actions job summary, through the real binary: appended on every run of a
// reporting command inside a step, and never a reason to lose the result.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_run.h"
#include "gpu/device_probe.h"
#include "scoped_env.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(JobSummaryCli, EachRunAppendsItsMarkdownReportToTheStepSummary) {
  if (CudaDriverProbe().probe().present) GTEST_SKIP() << "a CUDA device is present";
  testing::TempDir dir;
  const auto summary = dir.path() / "step_summary.md";
  { std::ofstream(summary) << "earlier step\n"; }
  testing::ScopedEnv env({{"GITHUB_STEP_SUMMARY", summary.string()}});
  for (int run = 0; run < 2; ++run) {
    auto r = testing::run_kblaster({"bench", "examples/kernels", "--kernel", "axpy"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_THAT(r.err, HasSubstr("job summary: appended to $GITHUB_STEP_SUMMARY (" +
                                 summary.string() + ")"));
  }
  const std::string text = read(summary);
  EXPECT_THAT(text, ::testing::StartsWith("earlier step\n## kblaster: "));
  EXPECT_THAT(text, HasSubstr("| axpy |"));
  EXPECT_THAT(text, HasSubstr("no CUDA device present ("));
  const auto first = text.find("## kblaster: ");
  EXPECT_NE(text.find("## kblaster: ", first + 1), std::string::npos) << "appended, not replaced";
}

TEST(JobSummaryCli, ASummaryThatCannotBeWrittenIsAWarningAndTheResultStands) {
  if (CudaDriverProbe().probe().present) GTEST_SKIP() << "a CUDA device is present";
  testing::ScopedEnv env(
      {{std::string("GITHUB_STEP_SUMMARY"), std::string("/no/such/dir/summary.md")}});
  auto r = testing::run_kblaster({"bench", "examples/kernels", "--kernel", "axpy", "--json"});
  EXPECT_EQ(r.exit_code, 3) << "the exit code is the run's: " << r.err;
  EXPECT_THAT(r.err, HasSubstr("warning: the job summary ($GITHUB_STEP_SUMMARY) was not written: "
                               "cannot append to /no/such/dir/summary.md: "));
  EXPECT_EQ(nlohmann::json::parse(r.out)["kind"], "bench") << "the result is still printed";
}

}  // namespace
}  // namespace kblaster
