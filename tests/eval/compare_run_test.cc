// The compare result: built from a synthetic A/B, it carries every pair with the SM
// clocks, and validates against reports/schema/compare.schema.json.
#include "eval/compare_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "result_schema.h"

namespace kblaster {
namespace {

AbResult slower_b() {
  AbResult r;
  r.comparison = {.verdict = Verdict::slower,
                  .ratio = 1.1,
                  .ci_low = 1.08,
                  .ci_high = 1.12,
                  .mann_whitney_p = 1e-6,
                  .n_a = 3,
                  .n_b = 3,
                  .reason = "SLOWER: B/A 1.1"};
  r.seed = 1011;
  r.pairs = 4;
  r.throttled_pairs = 1;
  r.samples = {.a_s = {10e-6, 10.1e-6, 9.9e-6},
               .b_s = {11e-6, 11.1e-6, 10.9e-6},
               .a_sm_mhz = {1980, 1980, 1980},
               .b_sm_mhz = {1980, 1965, 1980}};
  r.sm_mhz = 1980;
  r.end = AbState::decided;
  r.recheck_a = r.recheck_b = {.passed = true, .reason = "passed", .message = "", .detail = {}};
  return r;
}

TEST(CompareRun, ItsJsonHasEveryPairAndValidatesAgainstItsSchema) {
  KernelSpec a, b;
  a.name = "base", a.source = "base.cu", a.sizes = {{}};
  b.name = "slower_10", b.source = "slower_10.cu";
  CompareRun run;
  run.provenance = testing::sample_provenance("compare", {11, 12, 13, 1011});
  run.a = &a, run.b = &b;
  run.min_effect = 0.02;
  run.series.runs = {slower_b()};
  run.series.tally = {{"SLOWER", 1}};
  const nlohmann::json j = to_json(run);
  EXPECT_EQ(compare_exit_code(run), ExitCode::found_problem) << "B is slower";
  EXPECT_EQ(j["a"]["kernel"], "base");
  EXPECT_EQ(j["runs"][0]["samples"]["b_s"][1], 11.1e-6);
  EXPECT_EQ(j["runs"][0]["samples"]["b_sm_mhz"][1], 1965);
  EXPECT_EQ(j["runs"][0]["throttled_pairs"], 1);
  testing::TempDir dir;
  EXPECT_TRUE(testing::is_valid_result(j, "compare", dir));

  nlohmann::json bad = j;
  bad["runs"][0]["ended"] = "DONE";
  bad["runs"][0]["samples"].erase("a_sm_mhz");
  bad["runs"][1] = j["runs"][0];
  bad["runs"][1].erase("samples");
  EXPECT_TRUE(testing::is_rejected_naming(
      bad,
      {"runs/0/ended: 'DONE' is not one of", "runs/0/samples: 'a_sm_mhz' is a required property",
       "runs/1: 'samples' is a required property"},
      dir));
}

TEST(CompareRun, OnlyASameOrFasterBIsExitZero) {
  CompareRun run;
  run.series.tally = {{"SAME", 2}, {"FASTER", 1}};
  EXPECT_EQ(compare_exit_code(run), ExitCode::ok);
  run.series.tally["REJECTED"] = 1;
  EXPECT_EQ(compare_exit_code(run), ExitCode::found_problem);
  run.series.tally.erase("REJECTED");
  run.not_timed = "`b` did not pass verification";
  EXPECT_EQ(compare_exit_code(run), ExitCode::found_problem);
  run.skipped = "verification and measurement skipped: no CUDA device present (none)";
  EXPECT_EQ(compare_exit_code(run), ExitCode::missing_environment);
}

}  // namespace
}  // namespace kblaster
