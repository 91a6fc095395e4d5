// The pure parts of `kblaster check`: the rows before GPU work, the decider, and the
// exit policy.
#include "eval/check_step.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

using V = KernelVerdict;

CheckRow row(KernelVerdict verdict) {
  CheckRow r;
  r.verdict = verdict;
  return r;
}

TEST(CheckExitCode, SlowerPolicyFailsOnSlowdownsAndErrors) {
  EXPECT_EQ(check_exit_code({row(V::same), row(V::faster)}, CheckConfig::FailOn::slower),
            ExitCode::ok);
  EXPECT_EQ(check_exit_code({row(V::same), row(V::slower)}, CheckConfig::FailOn::slower),
            ExitCode::found_problem);
  for (V error : {V::regression, V::build_failed, V::rejected})
    EXPECT_EQ(check_exit_code({row(error)}, CheckConfig::FailOn::slower), ExitCode::found_problem)
        << check_verdict_name(error);
}

TEST(CheckExitCode, AWorkloadChangeThatStopsTheTimingFailsAsASlowdownWould) {
  EXPECT_EQ(check_exit_code({row(V::not_compared)}, CheckConfig::FailOn::slower),
            ExitCode::found_problem);
  EXPECT_EQ(check_exit_code({row(V::not_compared)}, CheckConfig::FailOn::error), ExitCode::ok);
}

TEST(CheckExitCode, ErrorPolicyIgnoresSlowdownsAndNeverPolicyIgnoresAll) {
  EXPECT_EQ(check_exit_code({row(V::slower)}, CheckConfig::FailOn::error), ExitCode::ok);
  EXPECT_EQ(check_exit_code({row(V::regression)}, CheckConfig::FailOn::error),
            ExitCode::found_problem);
  EXPECT_EQ(check_exit_code({row(V::regression), row(V::slower)}, CheckConfig::FailOn::never),
            ExitCode::ok);
}

TEST(CheckVerdicts, EveryVerdictHasADistinctStableName) {
  const std::vector<std::pair<V, std::string>> names = {{V::faster, "FASTER"},
                                                        {V::slower, "SLOWER"},
                                                        {V::same, "SAME"},
                                                        {V::ambiguous, "AMBIGUOUS"},
                                                        {V::new_kernel, "NEW"},
                                                        {V::deleted, "DELETED"},
                                                        {V::build_failed, "BUILD_FAILED"},
                                                        {V::regression, "REGRESSION"},
                                                        {V::unverified, "UNVERIFIED"},
                                                        {V::not_compared, "NOT_COMPARED"},
                                                        {V::rejected, "REJECTED"},
                                                        {V::skipped, "SKIPPED"}};
  for (const auto& [verdict, name] : names) EXPECT_EQ(check_verdict_name(verdict), name);
  EXPECT_STREQ(check_verdict_name(V::pending), "");
}

AbResult ab_with(Verdict verdict, std::string reason) {
  AbResult ab;
  ab.comparison.verdict = verdict;
  ab.comparison.reason = std::move(reason);
  return ab;
}

TEST(DecideCheck, FollowsTheEvidenceInTheOrderCheckGathersIt) {
  CheckEvidence e;
  EXPECT_EQ(decide_check(e).verdict, V::new_kernel) << "no reference and no base";
  e.base_declared = true;
  EXPECT_EQ(decide_check(e).verdict, V::unverified);
  EXPECT_EQ(decide_check(e).reason, "no reference, and base did not build");
  EXPECT_EQ(problem_of(V::unverified), CheckProblem::error) << "a changed kernel left unchecked";

  e.has_reference = true;
  EXPECT_EQ(decide_check(e).verdict, V::pending) << "a reference, so it must be verified first";
  e.verified = true;
  EXPECT_EQ(decide_check(e).verdict, V::new_kernel) << "verified, nothing to time against";
  CheckVerdict wrong{false, "wrong_result", "`out`[0] is 1, expected 2", {}};
  e.head_failure = &wrong;
  EXPECT_EQ(decide_check(e).verdict, V::regression);
  EXPECT_EQ(decide_check(e).reason,
            "functional regression: head fails its reference: wrong_result: `out`[0] is 1, "
            "expected 2");
  e.has_reference = false;
  e.has_base = true;
  EXPECT_EQ(decide_check(e).reason,
            "functional regression: head's output differs from base's: wrong_result: `out`[0] is "
            "1, expected 2");

  e.head_failure = nullptr;
  EXPECT_EQ(decide_check(e).verdict, V::pending) << "still to be timed";
  e.not_comparable = "their sizes differ";
  EXPECT_EQ(decide_check(e).verdict, V::not_compared);
  EXPECT_EQ(decide_check(e).reason, "verified; their sizes differ");

  CheckEvidence broken_base;
  broken_base.base_declared = broken_base.has_base = true;
  broken_base.base_failure =
      "it fails when run: the candidate used as reference faulted: cudaErrorIllegalAddress";
  EXPECT_EQ(decide_check(broken_base).verdict, V::unverified) << "not head's regression";
  EXPECT_EQ(decide_check(broken_base).reason,
            "no reference, and base cannot serve as head's reference, so head's output has "
            "nothing to be checked against (declare a reference): it fails when run: the candidate "
            "used as reference faulted: cudaErrorIllegalAddress");
}

TEST(DecideCheck, TheTimingDecidesOnceItIsTrusted) {
  CheckEvidence e;
  e.base_declared = e.has_base = e.has_reference = e.verified = true;
  const AbResult slower = ab_with(Verdict::slower, "SLOWER: B/A 1.5");
  e.ab = &slower;
  EXPECT_EQ(decide_check(e).verdict, V::slower);
  EXPECT_EQ(decide_check(e).reason, "SLOWER: B/A 1.5");
  const AbResult faster = ab_with(Verdict::faster, "FASTER"), same = ab_with(Verdict::same, "SAME"),
                 open = ab_with(Verdict::ambiguous, "AMBIGUOUS");
  e.ab = &faster;
  EXPECT_EQ(decide_check(e).verdict, V::faster);
  e.ab = &same;
  EXPECT_EQ(decide_check(e).verdict, V::same);
  e.ab = &open;
  EXPECT_EQ(decide_check(e).verdict, V::ambiguous);
  AbResult rejected = slower;
  rejected.rejected = "candidate 1 crashed while timed";
  e.ab = &rejected;
  EXPECT_EQ(decide_check(e).verdict, V::rejected);
  EXPECT_EQ(decide_check(e).reason, "candidate 1 crashed while timed");
}

TEST(CheckRows, DeletedAndUnbuiltKernelsGetTheirVerdictBeforeAnyGpuWork) {
  CheckedKernel deleted{"gone", "deleted", nullptr, nullptr};
  const CheckRow d = build_row(deleted);
  EXPECT_EQ(d.verdict, V::deleted);
  EXPECT_EQ(d.head, "-");
  EXPECT_EQ(problem_of(d.verdict), CheckProblem::none);

  KernelBuild broken;
  broken.result.outcome = BuildOutcome::compile_error;
  broken.result.summary = "compile error: k.cu:3:1: error: expected ';'";
  CheckedKernel failing{"k", "source_changed", nullptr, &broken};
  const CheckRow f = build_row(failing);
  EXPECT_EQ(f.verdict, V::build_failed);
  EXPECT_EQ(f.head, "compile_error");
  EXPECT_EQ(f.reason, broken.result.summary);
  EXPECT_EQ(problem_of(f.verdict), CheckProblem::error);

  KernelBuild built;
  built.result.outcome = BuildOutcome::cache_hit;
  CheckedKernel pending{"k", "source_changed", &built, &built};
  EXPECT_EQ(build_row(pending).verdict, V::pending) << "still needs verifying and timing";
}

}  // namespace
}  // namespace kblaster
