// The profile result: a kernel profiled from a real H200 ncu CSV, one timed instead and
// one skipped, validated against reports/schema/profile.schema.json.
#include "eval/profile_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "result_schema.h"
#include "stats/summary.h"
#include "test_paths.h"

namespace kblaster {
namespace {

ProfileReport axpy_profile() {
  const auto csv = testing::source_dir() / "tests/profile/fixtures/h200/axpy.csv";
  auto report = read_profile(testing::read_text(csv), csv.string(), std::nullopt,
                             RooflineInputs{.min_bytes = 201326592,
                                            .flops = 33554432,
                                            .ceilings = {.dram_bytes_per_s = 4.3e12,
                                                         .fp32_flops_per_s = 6.0e13,
                                                         .tensor_flops_per_s = std::nullopt}});
  EXPECT_TRUE(report.ok()) << report.error().describe();
  return report.ok() ? *report : ProfileReport{};
}

Measurement relu_timing() {
  Measurement m;
  m.size = "n=16777216";
  m.seed = 99;
  m.samples = {61e-6, 62e-6, 61.5e-6};
  m.sample_sm_mhz = {1980, 1980, 1980};
  m.summary = summarize(m.samples);
  m.sm_mhz = 1980;
  m.recheck = {.passed = true, .reason = "passed", .message = "", .detail = {}};
  return m;
}

TEST(ProfileRun, ItsJsonValidatesWithAProfileATimingAndASkip) {
  ProfileRun run;
  run.provenance = testing::sample_provenance("profile", {99});
  run.ceilings = {
      .dram_bytes_per_s = 4.3e12, .fp32_flops_per_s = 6.0e13, .tensor_flops_per_s = std::nullopt};
  run.kernels = {{.kernel = "axpy",
                  .status = ProfileStatus::profiled,
                  .report = axpy_profile(),
                  .measurement = std::nullopt,
                  .why_no_profile = ""},
                 {.kernel = "relu",
                  .status = ProfileStatus::timed_only,
                  .report = std::nullopt,
                  .measurement = relu_timing(),
                  .why_no_profile = "$KBLASTER_NCU is /nonexistent/ncu"},
                 {.kernel = "broken",
                  .status = ProfileStatus::skipped,
                  .report = std::nullopt,
                  .measurement = std::nullopt,
                  .why_no_profile = "the build failed"}};
  const nlohmann::json j = to_json(run);
  EXPECT_EQ(profile_exit_code(run), ExitCode::found_problem) << "a kernel did not build";
  EXPECT_EQ(j["kernels"][0]["state"]["key"], "memory.dram_saturated");
  EXPECT_EQ(j["kernels"][0]["status"], "profiled");
  EXPECT_TRUE(j["kernels"][1]["profile"].is_null());
  EXPECT_EQ(j["kernels"][1]["measurement"]["samples"].size(), 3u);
  EXPECT_TRUE(j["ceilings"]["tensor_flops_per_s"].is_null());
  testing::TempDir dir;
  EXPECT_TRUE(testing::is_valid_result(j, "profile", dir));

  nlohmann::json bad = j;
  bad["kernels"][0]["state"]["bottleneck"] = "disk";
  bad["kernels"][0]["why_no_profile"] = "a profiled kernel has no such field";
  bad["kernels"][1].erase("measurement");
  EXPECT_TRUE(testing::is_rejected_naming(
      bad,
      {"kernels/0/state/bottleneck: 'disk' is not one of",
       "kernels/0: Unevaluated properties are not allowed ('why_no_profile'",
       "kernels/1: 'measurement' is a required property"},
      dir));
}

TEST(ProfileRun, ATimingInsteadOfAProfileExitsThree) {
  ProfileRun run;
  run.kernels = {{.kernel = "relu",
                  .status = ProfileStatus::timed_only,
                  .report = std::nullopt,
                  .measurement = relu_timing(),
                  .why_no_profile = "no ncu"}};
  EXPECT_EQ(profile_exit_code(run), ExitCode::missing_environment);
  run.kernels.front().status = ProfileStatus::profiled;
  EXPECT_EQ(profile_exit_code(run), ExitCode::ok);
}

}  // namespace
}  // namespace kblaster
