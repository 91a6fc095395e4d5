// Which kernels of a real H200 optimize result an optimization PR may carry: a pure source
// change with its verified text goes in; a gain that needs a build setting, a tunable, an
// untrusted timing, a failed soft verification, or a text that is not the one verified
// stays out, each saying why; and the pull requests per kernel or per sweep.
#include "github/optimization_selection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/between_machines.h"
#include "core/candidate_fingerprint.h"
#include "h200_fixtures.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::SizeIs;

TEST(OptimizationSelection, ASourceChangeGoesInAndAFlagsGainIsLeftOutNeedingABuildSetting) {
  const auto selection = select_verified_changes(testing::optimize_with_best_source());
  ASSERT_THAT(selection.changes, SizeIs(1));
  const VerifiedChange& c = selection.changes[0];
  EXPECT_EQ(c.kernel, "matmul_naive");
  EXPECT_EQ(c.source, "kernels/matmul_naive.cu");
  EXPECT_EQ(c.baseline, "9ff585ad4c74af3b");
  EXPECT_NEAR(c.speedup, 1.2099, 1e-4);
  EXPECT_NEAR(c.ci_low, 1.2067, 1e-4);
  EXPECT_NEAR(c.ci_high, 1.2123, 1e-4);
  EXPECT_EQ(c.path, (std::vector<std::string>{"launch_geometry_tuning"}));
  EXPECT_THAT(c.text, HasSubstr("const dim3 block(32, 32);"));

  ASSERT_THAT(selection.left_out, SizeIs(1));
  EXPECT_EQ(selection.left_out[0].kernel, "softmax_slow");
  EXPECT_EQ(selection.left_out[0].reason, LeftOutReason::needs_build_setting);
  EXPECT_EQ(selection.left_out[0].why(),
            "needs a build setting (nvcc_flags: add \"-use_fast_math\"; no source form was made "
            "(the result predates them))");
}

TEST(OptimizationSelection, ALauncherArgumentTunableNeedsABuildSettingToo) {
  const auto selection =
      select_verified_changes(testing::h200_fixture("optimize_softmax_slow_scale_rows.json"));
  EXPECT_THAT(selection.changes, SizeIs(0));
  ASSERT_THAT(selection.left_out, SizeIs(2));
  EXPECT_EQ(selection.left_out[1].kernel, "scale_rows");
  EXPECT_EQ(selection.left_out[1].why(),
            "needs a build setting (args: block_size tunable = 256 first; no source form was "
            "made (the result predates them))");
}

TEST(OptimizationSelection, AResultWithoutTheVerifiedTextLeavesTheSourceChangeOutSayingWhy) {
  const auto selection =
      select_verified_changes(testing::h200_fixture("optimize_softmax_slow_matmul_naive.json"));
  EXPECT_THAT(selection.changes, SizeIs(0));
  ASSERT_THAT(selection.left_out, SizeIs(2));
  EXPECT_EQ(selection.left_out[1].reason, LeftOutReason::no_source_text);
  EXPECT_THAT(selection.left_out[1].why(), HasSubstr("run optimize again"));
}

TEST(OptimizationSelection, EachRuleLeavesOutWhatItGuards) {
  struct Case {
    const char* what;
    std::function<void(nlohmann::json&)> edit;
    LeftOutReason reason;
  };
  const Case cases[] = {
      {"skipped",
       [](nlohmann::json& k) {
         k = {{"kernel", "matmul_naive"}, {"status", "skipped"}, {"skip_reason", "no CUDA device"}};
       },
       LeftOutReason::not_searched},
      {"SAME", [](nlohmann::json& k) { k["speedup"]["verdict"] = "SAME"; },
       LeftOutReason::not_faster},
      {"untrusted", [](nlohmann::json& k) { k["final_ab"]["trusted"] = false; },
       LeftOutReason::untrusted_timing},
      {"no value", [](nlohmann::json& k) { k["speedup"]["value"] = nullptr; },
       LeftOutReason::untrusted_timing},
      {"soft", [](nlohmann::json& k) { k["soft_verification"] = {"launches on a second stream"}; },
       LeftOutReason::soft_verification},
      {"tunable", [](nlohmann::json& k) { k["settings_needed"] = {"tunables: BLOCK = 16 first"}; },
       LeftOutReason::needs_build_setting},
      {"tampered",
       [](nlohmann::json& k) { k["best_source"] = k["best_source"].get<std::string>() + "// x\n"; },
       LeftOutReason::source_not_verified},
      {"wrong type", [](nlohmann::json& k) { k["best_source"] = 42; },
       LeftOutReason::no_source_text},
      {"name ..", [](nlohmann::json& k) { k["kernel"] = "a..b"; }, LeftOutReason::unusable_name},
      {"source ../", [](nlohmann::json& k) { k["source"] = "../secret.cu"; },
       LeftOutReason::unusable_name},
  };
  for (const Case& c : cases) {
    auto result = testing::optimize_with_best_source();
    c.edit(result["kernels"][1]);
    const auto selection = select_verified_changes(result);
    EXPECT_THAT(selection.changes, SizeIs(0)) << c.what;
    ASSERT_THAT(selection.left_out, SizeIs(2)) << c.what;
    EXPECT_EQ(selection.left_out[1].reason, c.reason) << c.what;
  }
  EXPECT_THAT(select_verified_changes(nlohmann::json("not a result")).changes, SizeIs(0));
}

TEST(OptimizationSelection, AVerifiedFasterSourceFormGoesInWithItsOwnSpeedup) {
  const auto selection = select_verified_changes(testing::optimize_with_source_form());
  ASSERT_THAT(selection.changes, SizeIs(2));
  const VerifiedChange& c = selection.changes[0];
  EXPECT_EQ(c.kernel, "softmax_slow");
  EXPECT_NEAR(c.speedup, 1.38, 1e-9);  // the form's, not the flag build's 1.42
  EXPECT_NEAR(c.ci_low, 1.37, 1e-9);
  EXPECT_THAT(c.text, HasSubstr("s += __expf(x[c] - m);"));
  EXPECT_THAT(c.written_as_source, ::testing::ElementsAre(HasSubstr("expf -> __expf")));
  EXPECT_THAT(selection.left_out, SizeIs(0));
}

TEST(OptimizationSelection, ASourceFormThatDoesNotStandLeavesTheKernelOutSayingWhy) {
  struct Case {
    const char* what;
    std::function<void(nlohmann::json&)> edit;
    const char* why;
  };
  const Case cases[] = {
      {"incomplete",
       [](nlohmann::json& f) {
         f = {{"status", "incomplete"},
              {"not_carried", {"launcher argument block_size = 256: chosen by the caller"}}};
       },
       "no source form: launcher argument block_size = 256"},
      {"fails",
       [](nlohmann::json& f) {
         f["status"] = "fails verification";
         f["verification"] = {{"outcome", "verify_failure"}, {"detail", "max error 3e-2"}};
       },
       "its source form fails verification: max error 3e-2"},
      {"SAME", [](nlohmann::json& f) { f["speedup"]["verdict"] = "SAME"; },
       "its source form is SAME against the baseline"},
      {"untrusted", [](nlohmann::json& f) { f["final_ab"]["rejected"] = "below the floor"; },
       "its source form's timing: below the floor"},
      {"soft", [](nlohmann::json& f) { f["soft_verification"] = {"reads the clock"}; },
       "fails the soft verification: reads the clock"},
      {"tampered",
       [](nlohmann::json& f) { f["source"] = f["source"].get<std::string>() + "// x\n"; },
       "its source form's text is not the one verified"},
      {"defaults not in the fingerprint",
       [](nlohmann::json& f) { f["source_defaults"] = {"BLOCK"}; },
       "its source form's text is not the one verified"},
  };
  for (const Case& c : cases) {
    auto result = testing::optimize_with_source_form();
    c.edit(result["kernels"][0]["source_form"]);
    const auto selection = select_verified_changes(result);
    ASSERT_THAT(selection.left_out, SizeIs(1)) << c.what;
    EXPECT_EQ(selection.left_out[0].reason, LeftOutReason::needs_build_setting) << c.what;
    EXPECT_THAT(selection.left_out[0].why(), HasSubstr(c.why)) << c.what;
  }
}

// The real H200 result (bench/results/2026-12-02-h200-8d0e42c): softmax_slow's best needed
// -use_fast_math (1.427x); its source form, with __expf, was verified and FASTER at 1.221x,
// and goes in at that speedup. scale_rows's block size is a launcher argument: left out.
TEST(OptimizationSelection, TheRealSourceFormGoesInAndTheLauncherArgumentStaysOut) {
  const auto selection = select_verified_changes(
      testing::h200_fixture("optimize_source_form_softmax_slow_scale_rows.json"));
  ASSERT_THAT(selection.changes, SizeIs(1));
  const VerifiedChange& c = selection.changes[0];
  EXPECT_EQ(c.kernel, "softmax_slow");
  EXPECT_NEAR(c.speedup, 1.2206, 1e-4);
  EXPECT_NEAR(c.ci_low, 1.2173, 1e-4);
  EXPECT_THAT(c.text, HasSubstr("s += __expf(x[c] - m);"));
  EXPECT_THAT(c.text, HasSubstr("kThreads = 32"));
  EXPECT_THAT(c.written_as_source, ::testing::ElementsAre(HasSubstr("expf -> __expf (2)")));
  ASSERT_THAT(selection.left_out, SizeIs(1));
  EXPECT_EQ(selection.left_out[0].kernel, "scale_rows");
  EXPECT_THAT(selection.left_out[0].why(),
              HasSubstr("no source form: launcher argument block_size = 256"));
}

TEST(OptimizationSelection, ATunableSourceFormIsVerifiedByItsFingerprintWithItsDefaults) {
  auto result = testing::optimize_with_source_form();
  auto& f = result["kernels"][0]["source_form"];
  f["source_defaults"] = {"BLOCK"};
  f["candidate"] =
      candidate_fingerprint(f["source"].get<std::string>(), source_defaults_setting({"BLOCK"}));
  const auto selection = select_verified_changes(result);
  ASSERT_THAT(selection.changes, SizeIs(2));
  EXPECT_EQ(selection.changes[0].source_defaults, (std::vector<std::string>{"BLOCK"}));
}

TEST(OptimizationSelection, APullRequestPerKernelOrOneForTheSweep) {
  auto change = select_verified_changes(testing::optimize_with_best_source()).changes.at(0);
  auto other = change;
  other.kernel = "transpose", other.speedup = 1.5;
  std::vector<LeftOut> left_out;
  const auto per_kernel = plan_optimization_prs({change, other}, PrGrouping::per_kernel, left_out);
  ASSERT_THAT(per_kernel, SizeIs(2));
  EXPECT_EQ(per_kernel[0].branch, "kblaster/optimize/matmul_naive");
  EXPECT_EQ(per_kernel[0].title, "kblaster: matmul_naive 1.21x faster");
  EXPECT_THAT(per_kernel[0].commit_message,
              HasSubstr("matmul_naive 1.21x (99% CI 1.21x-1.21x): launch_geometry_tuning"));
  EXPECT_THAT(per_kernel[0].commit_message, HasSubstr(speedup_caveat()))
      << "the history keeps the speedup: it keeps the caveat too";
  EXPECT_EQ(per_kernel[1].branch, "kblaster/optimize/transpose");
  EXPECT_THAT(left_out, SizeIs(0)) << "a pull request each may change the same file";
  other.source = "kernels/transpose.cu";
  const auto sweep = plan_optimization_prs({change, other}, PrGrouping::per_sweep, left_out);
  ASSERT_THAT(sweep, SizeIs(1));
  EXPECT_EQ(sweep[0].branch, "kblaster/optimize/sweep");
  EXPECT_EQ(sweep[0].title, "kblaster: 2 kernels faster, up to 1.50x");
  EXPECT_THAT(sweep[0].changes, SizeIs(2));
  EXPECT_THAT(sweep[0].commit_message, HasSubstr(speedup_caveat()));
  EXPECT_THAT(left_out, SizeIs(0));
  EXPECT_THAT(plan_optimization_prs({}, PrGrouping::per_sweep, left_out), SizeIs(0));

  auto twin = change;
  twin.kernel = "matmul_twin";
  const auto shared = plan_optimization_prs({change, twin}, PrGrouping::per_sweep, left_out);
  ASSERT_THAT(shared, SizeIs(1));
  EXPECT_THAT(shared[0].changes, SizeIs(1)) << "one file, one verified text";
  ASSERT_THAT(left_out, SizeIs(1));
  EXPECT_EQ(left_out[0].reason, LeftOutReason::same_file);
  EXPECT_EQ(left_out[0].why(),
            "its source is the one another kernel's change rewrites "
            "(kernels/matmul_naive.cu, with matmul_naive's)");
}

TEST(OptimizationSelection, TheKernelRepositoryIsTheLongestConfigFolderTheResultsPathEndsWith) {
  const std::vector<std::string> dirs = {"", "examples/kernels/", "bench/kernels/"};
  EXPECT_EQ(kernel_repository_dir(dirs, "/work/main/examples/kernels"), "examples/kernels/");
  EXPECT_EQ(kernel_repository_dir(dirs, "/work/main/examples/kernels/"), "examples/kernels/");
  EXPECT_EQ(kernel_repository_dir(dirs, "/home/runner/work/kernels/kernels"), "");
  EXPECT_EQ(kernel_repository_dir({"examples/kernels/"}, "/x/other-examples/kernels"), std::nullopt)
      << "a whole folder name, not a suffix of one";
  EXPECT_EQ(kernel_repository_dir({}, "/x"), std::nullopt);
}

}  // namespace
}  // namespace kblaster
