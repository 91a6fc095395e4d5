// The bench result: built from synthetic timings, it carries every sample with its SM
// clock, and validates against reports/schema/bench.schema.json.
#include "eval/bench_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "result_schema.h"
#include "stats/summary.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

Measurement timed(std::uint64_t seed, std::vector<double> samples) {
  Measurement m;
  m.size = "n=1048576";
  m.seed = seed;
  m.samples = std::move(samples);
  m.sample_sm_mhz.assign(m.samples.size(), 1980.0);
  m.summary = summarize(m.samples);
  m.sm_mhz = 1980.0;
  m.stop = {.reason = StopReason::converged, .noise = 0.004, .samples = 3, .gpu_seconds = 3e-3};
  m.min_bytes = 8388608;
  m.floor_seconds = 2e-6;
  m.recheck = {.passed = true, .reason = "passed", .message = "", .detail = {}};
  return m;
}

TEST(BenchRun, ItsJsonHasEverySampleAndValidatesAgainstItsSchema) {
  KernelSpec axpy;
  axpy.name = "axpy";
  const SizeVerdict passed{.size = "n=1048576",
                           .verdict = {.passed = true,
                                       .reason = "passed",
                                       .message = "",
                                       .detail = {{"max_abs_error", 0.0}, {"seed", 7}}}};
  BenchRun run;
  run.provenance = testing::sample_provenance("bench", {7, 8, 9, 1007, 1008});
  run.outcome.ceilings = {
      .dram_bytes_per_s = 4.3e12, .fp32_flops_per_s = 6.0e13, .tensor_flops_per_s = std::nullopt};
  run.outcome.kernels = {BenchedKernel{
      .verification = {.spec = &axpy,
                       .status = KernelVerification::Status::passed,
                       .skip_reason = "",
                       .sizes = {passed}},
      .runs = {timed(1007, {10e-6, 11e-6, 9e-6}), timed(1008, {10.5e-6, 10.4e-6, 10.6e-6})},
      .stopped = ""}};
  const nlohmann::json j = to_json(run);
  EXPECT_EQ(bench_exit_code(run), ExitCode::ok);
  EXPECT_EQ(j["kind"], "bench");
  const auto& k = j["kernels"][0];
  EXPECT_EQ(k["measurement"]["samples"], nlohmann::json::array({10e-6, 11e-6, 9e-6}));
  EXPECT_EQ(k["measurement"]["sample_sm_mhz"].size(), 3u);
  EXPECT_EQ(k["measurement"]["median_s"], 10e-6);
  EXPECT_EQ(k["repeats"][0]["seed"], 1008);
  EXPECT_EQ(k["medians_s"], nlohmann::json::array({10e-6, 10.5e-6}));
  testing::TempDir dir;
  EXPECT_TRUE(testing::is_valid_result(j, "bench", dir));

  nlohmann::json bad = j;
  bad["kernels"][0]["measurement"]["stop"] = "DONE";
  bad["kernels"][0]["verification"]["sizes"][0]["reason"] = "fine";
  EXPECT_TRUE(
      testing::is_rejected_naming(bad,
                                  {"kernels/0/measurement/stop: 'DONE' is not one of",
                                   "kernels/0/verification/sizes/0/reason: 'fine' is not one of"},
                                  dir));
}

TEST(BenchRun, ARejectedTimingOrASkippedRunIsNotExitZero) {
  BenchRun run;
  run.outcome.problem = true;
  EXPECT_EQ(bench_exit_code(run), ExitCode::found_problem);
  run.skipped = "verification and measurement skipped: no CUDA device present (none)";
  EXPECT_EQ(bench_exit_code(run), ExitCode::missing_environment);
}

}  // namespace
}  // namespace kblaster
