// One failing-verdict policy: check's exit code (eval, by enum) and the GitHub check run,
// annotations and claim reviews (github, which read saved results by name) cannot drift apart.
#include "core/failing_verdict.h"

#include <gtest/gtest.h>

#include "eval/check_step.h"

namespace kblaster {
namespace {

TEST(FailingVerdict, TheNamesThatFailAreCheckErrors) {
  for (const char* name : {"REGRESSION", "BUILD_FAILED", "REJECTED", "UNVERIFIED"})
    EXPECT_TRUE(is_failing_verdict(name)) << name;
  for (const char* name : {"SLOWER", "FASTER", "SAME", "AMBIGUOUS", "NEW", "DELETED",
                           "NOT_COMPARED", "SKIPPED", "", "regression"})
    EXPECT_FALSE(is_failing_verdict(name)) << name;
}

TEST(FailingVerdict, CheckExitCodeAndGithubAgreeOnEveryVerdict) {
  for (int i = 0; i <= static_cast<int>(KernelVerdict::skipped); ++i) {
    const auto v = static_cast<KernelVerdict>(i);
    EXPECT_EQ(problem_of(v) == CheckProblem::error, is_failing_verdict(check_verdict_name(v)))
        << check_verdict_name(v);
  }
  EXPECT_EQ(problem_of(KernelVerdict::slower), CheckProblem::slower) << "fail_on decides";
  for (int i = 0; i <= static_cast<int>(KernelVerdict::skipped); ++i) {
    const auto v = static_cast<KernelVerdict>(i);
    EXPECT_EQ(problem_of(v) == CheckProblem::slower, fails_under_slower(check_verdict_name(v)))
        << check_verdict_name(v);
  }
}

TEST(FailingVerdict, AWorkloadChangeThatStopsTheTimingFailsUnderSlowerAsASlowdownWould) {
  EXPECT_EQ(problem_of(KernelVerdict::not_compared), CheckProblem::slower);
  EXPECT_TRUE(fails_under_slower("NOT_COMPARED"));
  EXPECT_FALSE(is_failing_verdict("NOT_COMPARED")) << "fail_on = \"error\" lets it pass";
}

}  // namespace
}  // namespace kblaster
