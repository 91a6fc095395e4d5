// How one size's verification verdict reads in the progress output.
#include <gtest/gtest.h>

#include "cli/verify_step.h"

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

TEST(DescribeVerdict, AFailureGivesItsReasonAndSeed) {
  CheckVerdict v{false, "wrong_result", "`out`[2] is 3.5, expected 3", {{"seed", 17}}};
  EXPECT_EQ(describe_verdict(v), "FAILED wrong_result: `out`[2] is 3.5, expected 3 [seed 17]");
}

}  // namespace
}  // namespace kblaster
