// The verify result: a kernel that failed at its second size and one skipped, counted
// and validated against reports/schema/verify.schema.json; and the seeds a run records.
#include "eval/verify_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "result_schema.h"

namespace kblaster {
namespace {

TEST(VerifyRun, ItsJsonCountsEachStatusAndValidatesAgainstItsSchema) {
  KernelSpec axpy, relu;
  axpy.name = "axpy", relu.name = "relu";
  const CheckVerdict passed{.passed = true, .reason = "passed", .message = "", .detail = {}};
  const CheckVerdict wrong{.passed = false,
                           .reason = "wrong_result",
                           .message = "1 of 333 elements differ",
                           .detail = {{"index", 17}, {"seed", 8}, {"buffer", "out"}}};
  VerifyRun run;
  run.provenance = testing::sample_provenance("verify", {7, 8, 9});
  run.kernels = {{.spec = &axpy,
                  .status = KernelVerification::Status::failed,
                  .skip_reason = "",
                  .sizes = {{"n=1048576", passed}, {"n=333", wrong}}},
                 {.spec = &relu,
                  .status = KernelVerification::Status::skipped,
                  .skip_reason = "it did not build",
                  .sizes = {}}};
  const nlohmann::json j = to_json(run);
  EXPECT_EQ(verify_exit_code(run), ExitCode::found_problem);
  EXPECT_EQ(j["summary"], (nlohmann::json{{"failed", 1}, {"skipped", 1}}));
  EXPECT_EQ(j["kernels"][0]["sizes"][1]["reason"], "wrong_result");
  EXPECT_EQ(j["kernels"][0]["sizes"][1]["detail"]["index"], 17);
  testing::TempDir dir;
  EXPECT_TRUE(testing::is_valid_result(j, "verify", dir));

  nlohmann::json bad = j;
  bad["kernels"][0]["sizes"][1]["passed"] = "no";
  EXPECT_TRUE(testing::is_rejected_naming(
      bad, {"kernels/0/sizes/1/passed: 'no' is not of type 'boolean'"}, dir));
}

TEST(VerifyRun, ARunKeepsAGivenFirstSeedAndDrawsOneOtherwise) {
  VerifyFlags given;
  given.seed_base = 42;
  EXPECT_EQ(seeded(given).seed_base, 42u);
  const VerifyFlags drawn = seeded(VerifyFlags{});
  EXPECT_NE(drawn.seed_base, 0u);
  EXPECT_EQ(verification_seeds(drawn, 1).front(), drawn.seed_base)
      << "the seeds recorded are the ones the drawn first seed gives";
}

}  // namespace
}  // namespace kblaster
