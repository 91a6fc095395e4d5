// Reports of `bench --baseline torch` (issue 22): the kernels against their PyTorch references,
// eager and compiled, and fast_p. The bench result is the real H200 one with baselines added by
// this test (scripted values, not measurements: no H200 baseline run exists yet).
#include "report/torch_baselines.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "report/html_report.h"
#include "report/markdown_report.h"
#include "report/result_reader.h"
#include "result_schema.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

// axpy beats eager by 2x and compile by 1.25x; matmul_naive is 3x slower than both, and its
// torch.compile failed.
nlohmann::json bench_with_baselines() {
  std::ifstream in(testing::source_dir() / "tests/eval/fixtures/h200/bench_axpy_matmul_naive.json");
  auto j = nlohmann::json::parse(in);
  auto timed = [](const char* mode, double kernel_s, double speedup) {
    return nlohmann::json{{"mode", mode},
                          {"runtime", "torch 2.5.1 on cuda"},
                          {"median_s", kernel_s * speedup},
                          {"q1_s", kernel_s * speedup},
                          {"q3_s", kernel_s * speedup},
                          {"samples", {kernel_s * speedup}},
                          {"stop", "CONVERGED"},
                          {"speedup", speedup}};
  };
  const double axpy = j["kernels"][0]["measurement"]["median_s"];
  const double matmul = j["kernels"][1]["measurement"]["median_s"];
  j["kernels"][0]["baselines"] = {timed("eager", axpy, 2.0), timed("compile", axpy, 1.25)};
  j["kernels"][1]["baselines"] = {
      timed("eager", matmul, 1.0 / 3),
      {{"mode", "compile"}, {"failed", "the PyTorch reference r.py:Model: BackendCompilerFailed"}}};
  return j;
}

TEST(TorchBaselines, FastPCountsKernelsThatVerifiedAndBeatTheBaseline) {
  const auto j = bench_with_baselines();
  testing::TempDir schema_dir;
  EXPECT_TRUE(testing::is_valid_result(j, "bench", schema_dir));
  auto view = read_result(j, "bench.json");
  ASSERT_TRUE(view.ok()) << view.error().message;
  ASSERT_EQ(view->kernels[0].baselines.size(), 2u);
  EXPECT_DOUBLE_EQ(*view->kernels[0].baselines[0].speedup, 2.0);
  EXPECT_EQ(view->kernels[1].baselines[1].failed,
            "the PyTorch reference r.py:Model: BackendCompilerFailed");
  const auto f = fast_p(std::span<const ResultView>(&*view, 1));
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(fast_p_text(f[0]), "fast_1 against torch eager: 1 of 2 kernels (50%)");
  EXPECT_EQ(fast_p_text(f[1]), "fast_1 against torch compile: 1 of 2 kernels (50%)");
  EXPECT_EQ(fast_p(std::span<const ResultView>(&*view, 1), 1.5)[1].fast, 0u)
      << "1.25x is not fast_1.5";

  // A kernel that failed verification counts against fast_p, whatever its baseline said.
  auto failed = j;
  failed["kernels"][0]["verification"]["status"] = "failed";
  auto fv = read_result(failed, "bench.json");
  ASSERT_TRUE(fv.ok()) << fv.error().message;
  EXPECT_EQ(fast_p(std::span<const ResultView>(&*fv, 1))[0].fast, 0u);
}

TEST(TorchBaselines, ReportsShowTheTableAndFastP) {
  auto view = read_result(bench_with_baselines(), "bench.json");
  ASSERT_TRUE(view.ok()) << view.error().message;
  const std::vector<ResultView> two = {*view, *view};
  const std::string md = render_markdown(two, 65536);
  EXPECT_THAT(md, HasSubstr("**Against PyTorch**"));
  EXPECT_THAT(md, HasSubstr("| kernel | kernel time | torch eager | speedup | torch.compile | "
                            "speedup |"));
  EXPECT_THAT(md, HasSubstr("| 2.00x | "));
  EXPECT_THAT(md, HasSubstr("| 0.33x | not timed | - |"));
  EXPECT_THAT(md, HasSubstr("- fast_1 against torch eager: 1 of 2 kernels (50%)"));
  EXPECT_THAT(md, HasSubstr("- over every result: fast_1 against torch eager: 2 of 4 kernels"));
  const std::string html = render_html(two);
  EXPECT_THAT(html, HasSubstr("<h3>Against PyTorch</h3>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"num\">1.25x</td>"));
  EXPECT_THAT(html, HasSubstr("Over every result: fast_1 against torch compile: 2 of 4 kernels"));
}

}  // namespace
}  // namespace kblaster
