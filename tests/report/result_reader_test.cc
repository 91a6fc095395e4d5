// Saved results read into views, and every way a file can be wrong named with the
// file and the field.
#include "report/result_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "report/speedup_caveat.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

nlohmann::json fixture(const std::string& relative) {
  std::ifstream in(testing::source_dir() / relative);
  return nlohmann::json::parse(in);
}

const char* kSlower = "tests/eval/fixtures/h200/UncoalescedAccessIsSlower.json";

TEST(ResultReader, ReadsARealCheckResult) {
  auto view = read_result(fixture(kSlower), "slower.json");
  ASSERT_TRUE(view.ok()) << view.error().message;
  EXPECT_EQ(view->kind, ResultKind::check);
  EXPECT_EQ(view->title, "check 75b7741..ec7d1da");
  ASSERT_EQ(view->kernels.size(), 2u);
  const KernelView& axpy = view->kernels[0];
  EXPECT_EQ(axpy.name, "axpy");
  EXPECT_EQ(axpy.finding, Finding::slower);
  ASSERT_TRUE(axpy.ratio);
  EXPECT_NEAR(axpy.ratio->value, 12.3714, 1e-4);
  EXPECT_NEAR(*axpy.ratio->low, 12.3246, 1e-4);
  EXPECT_NEAR(*axpy.ratio->high, 12.5472, 1e-4);
  EXPECT_THAT(axpy.verification,
              ElementsAre("build base: built in 2.1 s",
                          "build head: built in 2.4 s; its reference built in 1.9 s",
                          "head: verified at every size before it was timed",
                          "outputs of the last timed launches re-verified: base passed, head "
                          "passed"));
  EXPECT_EQ(view->facts.front(), (std::pair<std::string, std::string>{"GPU", "NVIDIA H200"}));
  EXPECT_EQ(view->value, fixture(kSlower)) << "the view keeps the result for the JSON report";
}

TEST(ResultReader, ACheckUnderBasesPolicySaysWhichFieldsThePullRequestLoosened) {
  auto check = fixture(kSlower);
  check["policy_kept_from_base"] = {
      "[check] min_effect: head's 0.5 is looser than base's 0.015; base's holds"};
  auto view = read_result(check, "c.json");
  ASSERT_TRUE(view.ok()) << view.error().message;
  EXPECT_THAT(view->notes,
              ::testing::Contains("The change loosens the check's policy: [check] min_effect: "
                                  "head's 0.5 is looser than base's 0.015; base's holds; a looser "
                                  "[check] applies once a base revision carries it."));
  check["policy_kept_from_base"] = {7};
  EXPECT_THAT(read_result(check, "c.json").error().message,
              ::testing::HasSubstr("policy_kept_from_base[0]"));
}

TEST(ResultReader, ReadsAnUntimedRegression) {
  auto view = read_result(
      fixture("tests/eval/fixtures/h200/ChangedOutputIsAFunctionalRegression.json"), "r.json");
  ASSERT_TRUE(view.ok()) << view.error().message;
  const KernelView& relu = view->kernels.at(0);
  EXPECT_EQ(relu.finding, Finding::regression);
  EXPECT_FALSE(relu.ratio);
  EXPECT_THAT(relu.verification.back(), HasSubstr("head: functional regression"));
}

TEST(ResultReader, ReadsAnOptimizeResult) {
  auto view = read_result(
      fixture("tests/eval/fixtures/h200/optimize_softmax_slow_matmul_naive.json"), "o.json");
  ASSERT_TRUE(view.ok()) << view.error().message;
  ASSERT_EQ(view->kernels.size(), 2u);
  const KernelView& matmul = view->kernels[1];
  EXPECT_EQ(matmul.name, "matmul_naive");
  EXPECT_EQ(matmul.finding, Finding::faster);
  ASSERT_TRUE(matmul.ratio && matmul.ratio->low && matmul.ratio->high);
  EXPECT_NEAR(matmul.ratio->value, 1 / 1.2098783567964462, 1e-12) << "head/base = 1/speedup";
  EXPECT_NEAR(*matmul.ratio->high, 1 / 1.2066764415623061, 1e-12);
  EXPECT_THAT(matmul.path, ElementsAre("launch_geometry_tuning"));
  ASSERT_EQ(matmul.search.size(), 11u);
  EXPECT_EQ(matmul.search[10].evaluation, 11);
  EXPECT_TRUE(matmul.search[0].elapsed_s) << "each step's time since the search began";
  ASSERT_TRUE(matmul.profile);
  EXPECT_EQ(matmul.profile->rows.front().metric, "duration");
  ASSERT_TRUE(matmul.roofline);
  ASSERT_EQ(matmul.roofline->points.size(), 2u);
  EXPECT_EQ(matmul.roofline->points[0].intensity, 256.0) << "2·M·N·K over the minimum bytes";
  EXPECT_THAT(view->notes, ElementsAre(speedup_caveat()))
      << "issue 21 B: a verified speedup is one GPU's; another of the same model differed more";
}

TEST(ResultReader, AnOptimizeResultWithNoSpeedupHasNoCaveat) {
  auto optimize = fixture("tests/eval/fixtures/h200/optimize_softmax_slow_matmul_naive.json");
  optimize["kernels"] = nlohmann::json::array({{{"kernel", "scale_rows"},
                                                {"status", "skipped"},
                                                {"skip_reason", "the baseline does not build"}}});
  auto view = read_result(optimize, "o.json");
  ASSERT_TRUE(view.ok()) << view.error().message;
  EXPECT_TRUE(view->notes.empty());
}

// The real H200 run with the LLM policy (a scripted answer set, not a model): the model's
// calls and tokens are a fact of the run and a line of each kernel.
TEST(ResultReader, AnOptimizeResultWithAModelSaysWhatTheModelUsed) {
  auto view = read_result(
      fixture("tests/eval/fixtures/h200/optimize_llm_scripted_softmax_matmul_scale_rows.json"),
      "llm.json");
  ASSERT_TRUE(view.ok()) << view.error().message;
  EXPECT_THAT(view->facts, ::testing::Contains(::testing::Pair(
                               "LLM policy",
                               "command: 34 calls, 63895 tokens in, 11396 out, cost unknown "
                               "(no price for the model)")));
  ASSERT_EQ(view->kernels.size(), 3u);
  EXPECT_THAT(view->kernels[0].verification,
              ::testing::Contains(::testing::StartsWith("the model: 14 calls, ")));
  EXPECT_EQ(view->kernels[0].path, (std::vector<std::string>{"warp_shuffle_reduction"}));
}

TEST(ResultReader, TimesComeFromTheSamplesOfAnABWhenItHasThem) {
  auto check = fixture(kSlower);
  check["kernels"][1]["timing"]["samples"] = {{"a_s", {1e-5, 3e-5, 2e-5, 2e-5, 2e-5}},
                                              {"b_s", {4e-5, 4e-5, 5e-5, 3e-5, 4e-5}},
                                              {"a_sm_mhz", {0, 0, 0, 0, 0}},
                                              {"b_sm_mhz", {0, 0, 0, 0, 0}}};
  auto view = read_result(check, "c.json");
  ASSERT_TRUE(view.ok()) << view.error().message;
  EXPECT_FALSE(view->kernels[0].base_time) << "no samples: no times";
  const KernelView& k = view->kernels[1];
  ASSERT_TRUE(k.base_time && k.head_time);
  EXPECT_DOUBLE_EQ(k.base_time->value, 2e-5) << "the median";
  EXPECT_DOUBLE_EQ(k.head_time->value, 4e-5);
  EXPECT_DOUBLE_EQ(*k.base_time->low, 1e-5) << "five samples: the CI spans them all";
  EXPECT_DOUBLE_EQ(*k.head_time->high, 5e-5);

  auto optimize = fixture("tests/eval/fixtures/h200/optimize_softmax_slow_matmul_naive.json");
  optimize["kernels"][0]["final_ab"] = check["kernels"][1]["timing"];
  auto o = read_result(optimize, "o.json");
  ASSERT_TRUE(o.ok()) << o.error().message;
  ASSERT_TRUE(o->kernels[0].head_time);
  EXPECT_DOUBLE_EQ(o->kernels[0].head_time->value, 4e-5) << "B of the final A/B is the best";
}

TEST(ResultReader, SkippedKernelsAndResultsSayWhy) {
  auto optimize = fixture("tests/eval/fixtures/h200/optimize_softmax_slow_matmul_naive.json");
  optimize["kernels"][2] = {{"kernel", "scale_rows"},
                            {"status", "skipped"},
                            {"skip_reason", "the baseline does not build"}};
  optimize["skipped"] = "no CUDA device present";
  auto view = read_result(optimize, "o.json");
  ASSERT_TRUE(view.ok()) << view.error().message;
  const KernelView& k = view->kernels[2];
  EXPECT_EQ(k.finding, Finding::skipped);
  EXPECT_EQ(k.reason, "the baseline does not build");
  EXPECT_FALSE(k.ratio);
  EXPECT_THAT(view->notes, ElementsAre("no CUDA device present", speedup_caveat()));
  optimize["kernels"][2].erase("skip_reason");
  EXPECT_EQ(read_result(optimize, "o.json").error().message,
            "o.json: field `kernels[2].skip_reason`: missing; expected a string");
}

// The message read_result gives for `result`, which must fail.
std::string error_of(const nlohmann::json& result) {
  auto view = read_result(result, "in.json");
  EXPECT_FALSE(view.ok());
  if (view.ok()) return "";
  EXPECT_EQ(view.error().kind, ErrorKind::usage);
  return view.error().message;
}

TEST(ResultReader, ReadsABenchResult) {
  auto view =
      read_result(fixture("tests/eval/fixtures/h200/bench_axpy_matmul_naive.json"), "b.json");
  ASSERT_TRUE(view.ok()) << view.error().message;
  ASSERT_EQ(view->kernels.size(), 2u);
  const KernelView& axpy = view->kernels[0];
  EXPECT_EQ(axpy.finding, Finding::timed);
  ASSERT_TRUE(axpy.head_time);
  EXPECT_NEAR(axpy.head_time->value, 6.47680014371872e-05, 1e-15) << "the median";
  EXPECT_FALSE(axpy.ratio) << "nothing to compare it with";
  EXPECT_EQ(axpy.reason, "IQR 1.93%, CONVERGED, noise 0.02%");

  auto failed = fixture("tests/eval/fixtures/h200/bench_axpy_matmul_naive.json");
  failed["kernels"][1]["verification"]["status"] = "failed";
  auto v = read_result(failed, "b.json");
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_EQ(v->kernels[1].finding, Finding::regression);
}

// A run result holds bench's fields beside its builds, and reads as bench's does.
TEST(ResultReader, ReadsARunResultAsABench) {
  auto view = read_result(fixture("tests/eval/fixtures/h200/run_axpy_softmax.json"), "r.json");
  ASSERT_TRUE(view.ok()) << view.error().message;
  EXPECT_EQ(view->kind, ResultKind::run);
  EXPECT_EQ(view->title, "run");
  ASSERT_EQ(view->kernels.size(), 2u);
  EXPECT_EQ(view->kernels[1].name, "softmax");
  EXPECT_EQ(view->kernels[1].finding, Finding::timed);
  EXPECT_EQ(view->kernels[1].reason, "IQR 1.70%, CONVERGED, noise 0.05%");
}

TEST(ResultReader, ErrorsNameTheFileAndTheField) {
  auto r = fixture(kSlower);
  EXPECT_EQ(error_of(nlohmann::json::array()), "in.json: field `(top)`: a result is a JSON object");
  EXPECT_EQ(error_of({{"schema_version", 1}}), "in.json: field `kind`: missing; expected a string");
  EXPECT_EQ(error_of({{"kind", "compare"}, {"schema_version", 1}}),
            "in.json: field `kind`: `compare` is not a kind of result kblaster reports on (check, "
            "optimize, bench, run)");
  r["schema_version"] = 2;
  EXPECT_EQ(error_of(r),
            "in.json: field `schema_version`: version 2 of kind check is not one this kblaster "
            "reads (1)");
  r = fixture(kSlower);
  r["kernels"][1]["timing"]["ratio"] = "fast";
  EXPECT_EQ(error_of(r),
            "in.json: field `kernels[1].timing.ratio`: expected a number, found string");
  r = fixture(kSlower);
  r["kernels"][0]["verdict"] = "QUICKER";
  EXPECT_THAT(error_of(r), HasSubstr("in.json: field `kernels[0].verdict`: `QUICKER` is not a "
                                     "verdict kblaster knows (REGRESSION, "));
  r = fixture(kSlower);
  r["provenance"]["seeds"][0] = -1;
  EXPECT_EQ(error_of(r),
            "in.json: field `provenance.seeds[0]`: expected a non-negative integer, "
            "found number");
}

TEST(ResultReader, FilesThatAreNotResultsAreUsageErrorsNamingThem) {
  testing::TempDir dir;
  const auto expect_usage = [](const std::filesystem::path& file, const std::string& says) {
    auto view = load_result(file);
    ASSERT_FALSE(view.ok());
    EXPECT_EQ(view.error().kind, ErrorKind::usage);
    EXPECT_THAT(view.error().message, HasSubstr(file.string()));
    EXPECT_THAT(view.error().message, HasSubstr(says));
  };
  expect_usage(dir.write("bad.json", "{\"kind\": \"check\","), "not valid JSON");
  expect_usage(dir.write("deep.json", std::string(100000, '[') + std::string(100000, ']')),
               "nested deeper than 64 levels");
  expect_usage(dir.write("strings.json", "{\"kind\": \"" + std::string(100, '[') + "\"}"),
               "`[[[[");  // brackets in a string are no nesting
  expect_usage(dir.path() / "missing.json", "missing.json");
}

}  // namespace
}  // namespace kblaster
