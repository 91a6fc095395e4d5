// The pure parts of `kblaster check`: the rows before GPU work and the exit policy.
#include "cli/check_step.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

CheckRow row(CheckRow::Problem problem) {
  CheckRow r;
  r.problem = problem;
  return r;
}

TEST(CheckExitCode, SlowerPolicyFailsOnSlowdownsAndErrors) {
  using P = CheckRow::Problem;
  EXPECT_EQ(check_exit_code({row(P::none), row(P::none)}, CheckConfig::FailOn::slower), ExitCode::ok);
  EXPECT_EQ(check_exit_code({row(P::none), row(P::slower)}, CheckConfig::FailOn::slower),
            ExitCode::found_problem);
  EXPECT_EQ(check_exit_code({row(P::error)}, CheckConfig::FailOn::slower), ExitCode::found_problem);
}

TEST(CheckExitCode, ErrorPolicyIgnoresSlowdownsAndNeverPolicyIgnoresAll) {
  using P = CheckRow::Problem;
  EXPECT_EQ(check_exit_code({row(P::slower)}, CheckConfig::FailOn::error), ExitCode::ok);
  EXPECT_EQ(check_exit_code({row(P::error)}, CheckConfig::FailOn::error), ExitCode::found_problem);
  EXPECT_EQ(check_exit_code({row(P::error), row(P::slower)}, CheckConfig::FailOn::never), ExitCode::ok);
}

TEST(CheckRows, DeletedAndUnbuiltKernelsGetTheirVerdictBeforeAnyGpuWork) {
  CheckedKernel deleted{"gone", "deleted", nullptr, nullptr};
  const CheckRow d = build_row(deleted);
  EXPECT_EQ(d.verdict, "DELETED");
  EXPECT_EQ(d.head, "-");
  EXPECT_EQ(d.problem, CheckRow::Problem::none);

  KernelBuild broken;
  broken.result.outcome = BuildOutcome::compile_error;
  broken.result.summary = "compile error: k.cu:3:1: error: expected ';'";
  CheckedKernel failing{"k", "source_changed", nullptr, &broken};
  const CheckRow f = build_row(failing);
  EXPECT_EQ(f.verdict, "BUILD_FAILED");
  EXPECT_EQ(f.head, "compile_error");
  EXPECT_EQ(f.reason, broken.result.summary);
  EXPECT_EQ(f.problem, CheckRow::Problem::error);

  KernelBuild built;
  built.result.outcome = BuildOutcome::cache_hit;
  CheckedKernel pending{"k", "source_changed", &built, &built};
  EXPECT_TRUE(build_row(pending).verdict.empty()) << "still needs verifying and timing";
}

}  // namespace
}  // namespace kblaster
