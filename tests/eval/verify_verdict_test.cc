// How one size's verification verdict reads in the progress output.
#include <gtest/gtest.h>

#include "eval/verify_step.h"

namespace kblaster {
namespace {

TEST(DescribeVerdict, APassGivesItsLargestErrors) {
  CheckVerdict v{true, "", "", {{"max_abs_error", 1.5e-7}, {"max_rel_error", 3.25e-6}}};
  EXPECT_EQ(describe_verdict(v), "passed (max abs error 1.50e-07, max rel error 3.25e-06)");
}

// The harness sends null when no expected value was a normal float (integer
// outputs, or all zeros, say): the line says so instead of claiming 0.
TEST(DescribeVerdict, APassWithoutARelativeErrorSaysWhy) {
  CheckVerdict v{true, "", "", {{"max_abs_error", 0.0}, {"max_rel_error", nullptr}}};
  EXPECT_EQ(describe_verdict(v),
            "passed (max abs error 0.00e+00, no relative error: no expected value is a normal "
            "float (integer outputs, or only zeros, subnormals, infinities or NaNs))");
}

// Issue 22, point 8: a launcher that waits for the GPU passes, and the line says how it was
// checked and what would not wait.
TEST(DescribeVerdict, APassOfALauncherThatWaitsSaysItWasVerifiedUnheld) {
  CheckVerdict v{
      true, "", "", {{"max_abs_error", 0.0}, {"max_rel_error", 0.0}, {"synchronizes", true}}};
  EXPECT_EQ(describe_verdict(v),
            "passed (max abs error 0.00e+00, max rel error 0.00e+00); the launcher waits for the "
            "GPU (a device sync, or cudaFree of a workspace), so it was verified unheld, without "
            "the check for work outside its stream, and is timed by wall time: "
            "cudaMallocAsync/cudaFreeAsync on its stream would not wait");
}

TEST(DescribeVerdict, AFailureGivesItsReasonAndSeed) {
  CheckVerdict v{false, "wrong_result", "`out`[2] is 3.5, expected 3", {{"seed", 17}}};
  EXPECT_EQ(describe_verdict(v), "FAILED wrong_result: `out`[2] is 3.5, expected 3 [seed 17]");
}

// A write out of bounds reaches the progress line and --json as the harness
// sent it: its reason, and the buffer, side and offsets in its detail.
TEST(DescribeVerdict, AnOutOfBoundsWriteKeepsItsBufferSideAndOffset) {
  const nlohmann::json detail = {{"buffer", "out"}, {"side", "after"},      {"offset_bytes", 4004},
                                 {"index", 1001},   {"bytes_changed", 256}, {"seed", 5}};
  CheckVerdict v{false, "out_of_bounds_write",
                 "the launch wrote past the end of `out` (1001 elements): 256 bytes of the "
                 "4096-byte guard after it changed, the first at byte offset 4004 from its start "
                 "(element 1001)",
                 detail};
  EXPECT_EQ(describe_verdict(v), "FAILED out_of_bounds_write: " + v.message + " [seed 5]");
  KernelSpec spec;
  spec.name = "scale";
  KernelVerification kv{.spec = &spec,
                        .status = KernelVerification::Status::failed,
                        .skip_reason = "",
                        .sizes = {{.size = "n=1001", .verdict = v}}};
  const nlohmann::json j = to_json(kv);
  EXPECT_EQ(j["status"], "failed");
  EXPECT_EQ(j["sizes"][0]["reason"], "out_of_bounds_write");
  EXPECT_EQ(j["sizes"][0]["detail"], detail);
}

}  // namespace
}  // namespace kblaster
