// `kblaster optimize` through the real binary on a machine without a GPU: it
// needs one, says so, and exits 3 without touching the user's sources.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "gpu/device_probe.h"
#include "result_schema.h"
#include "test_paths.h"

namespace kblaster {
namespace {

TEST(OptimizeCli, WithoutAGpuSaysWhatIsMissingAndExitsThree) {
  if (CudaDriverProbe().probe().present) GTEST_SKIP() << "a CUDA device is present";
  const std::string before = testing::read_text(testing::examples_dir() / "kernels/axpy.cu");
  auto r = testing::run_kblaster({"optimize", "examples/kernels", "--kernel", "axpy", "--apply"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, ::testing::HasSubstr("no CUDA device present"));
  EXPECT_EQ(testing::read_text(testing::examples_dir() / "kernels/axpy.cu"), before);
}

// Without a GPU the result still says what was asked: each kernel skipped and why, the
// seeds the search would have used, and where it would have written.
TEST(OptimizeCli, ItsJsonWithoutAGpuIsAnOptimizeResultWithEveryKernelSkipped) {
  if (CudaDriverProbe().probe().present) GTEST_SKIP() << "a CUDA device is present";
  auto r = testing::run_kblaster({"optimize", "examples/kernels", "--kernel", "axpy", "--kernel",
                                  "relu", "--search-seed", "5", "--breadth", "2", "--json"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kind"], "optimize");
  EXPECT_EQ(j["search_seed"], 5);
  EXPECT_EQ(j["verification_seeds"], nlohmann::json::array({1005, 1006, 1007}));
  EXPECT_EQ(j["provenance"]["seeds"], nlohmann::json::array({5, 1005, 1006, 1007}));
  EXPECT_EQ(j["budget"]["breadth"], 2);
  EXPECT_TRUE(j["provenance"]["gpu"].is_null());
  ASSERT_EQ(j["kernels"].size(), 2u);
  EXPECT_EQ(j["kernels"][1]["kernel"], "relu");
  EXPECT_EQ(j["kernels"][1]["status"], "skipped");
  EXPECT_EQ(j["kernels"][1]["skip_reason"], "no CUDA device");
  EXPECT_THAT(j["skipped"].get<std::string>(), ::testing::HasSubstr("no CUDA device present ("));
  testing::TempDir dir;
  EXPECT_TRUE(testing::is_valid_result(j, "optimize", dir));
  j["kernels"][0]["status"] = "abandoned";
  EXPECT_TRUE(testing::is_rejected_naming(j, {"kernels/0/status: 'searched' was expected"}, dir));
}

// --report DIR writes the result's report even when nothing could be searched, so a CI job
// can post why.
TEST(OptimizeCli, ReportWritesTheResultAsMarkdownHtmlAndJsonIntoTheFolder) {
  if (CudaDriverProbe().probe().present) GTEST_SKIP() << "a CUDA device is present";
  testing::TempDir dir;
  auto r = testing::run_kblaster({"optimize", "examples/kernels", "--kernel", "axpy", "--report",
                                  (dir.path() / "report").string()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const std::string md = testing::read_text(dir.path() / "report/report.md");
  EXPECT_THAT(md, ::testing::StartsWith("## kblaster: 1 kernel skipped\n"));
  EXPECT_THAT(md,
              ::testing::HasSubstr("| axpy | - | - | \u2013 | \u26AA SKIPPED | no CUDA device |"));
  EXPECT_THAT(testing::read_text(dir.path() / "report/report.html"),
              ::testing::HasSubstr("no CUDA device present"));
  const auto report = nlohmann::json::parse(testing::read_text(dir.path() / "report/report.json"));
  EXPECT_EQ(report["results"][0]["kind"], "optimize");
  const auto [code, said] = testing::validate_result(report, dir);
  EXPECT_EQ(code, 0) << said << "\nthe report's schema checks the optimize result inside it";
}

// bench takes --report DIR the same way, through the bench reader.
TEST(BenchCli, ReportWritesTheResultAsMarkdownHtmlAndJsonIntoTheFolder) {
  if (CudaDriverProbe().probe().present) GTEST_SKIP() << "a CUDA device is present";
  testing::TempDir dir;
  auto r = testing::run_kblaster({"bench", "examples/kernels", "--kernel", "axpy", "--report",
                                  (dir.path() / "report").string()});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const std::string md = testing::read_text(dir.path() / "report/report.md");
  EXPECT_THAT(md, ::testing::StartsWith("## kblaster: 1 kernel skipped\n\n### bench\n"));
  EXPECT_THAT(md,
              ::testing::HasSubstr("| axpy | - | - | \u2013 | \u26AA SKIPPED | no CUDA device |"));
  const auto report = nlohmann::json::parse(testing::read_text(dir.path() / "report/report.json"));
  EXPECT_EQ(report["results"][0]["kind"], "bench");
  const auto [code, said] = testing::validate_result(report, dir);
  EXPECT_EQ(code, 0) << said << "\nthe report's schema checks the bench result inside it";
}

TEST(OptimizeCli, HelpNamesTheBudgetAndTheOutput) {
  auto r = testing::run_kblaster({"optimize", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* flag : {"--breadth", "--depth", "--max-time", "--out", "--apply",
                           "--source-only", "--kb", "--report"})
    EXPECT_THAT(r.out, ::testing::HasSubstr(flag));
}

}  // namespace
}  // namespace kblaster
