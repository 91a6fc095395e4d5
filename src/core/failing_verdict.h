// Which of check's verdicts fail a pull request whatever `fail_on` asks beyond "never", by the
// verdicts' stable names: how GitHub's check run, annotations and claim reviews (github/) read
// saved results. check's exit code decides by its enum (eval/check_step's problem_of), and a test
// holds the two to each other for every verdict.
#pragma once

#include <string_view>

namespace kblaster {

// True for REGRESSION, BUILD_FAILED, REJECTED and UNVERIFIED (a changed kernel nothing could
// check fails closed); false for every other name, SLOWER included (fail_on decides that).
bool is_failing_verdict(std::string_view verdict_name);

// True for the verdicts that fail only under `fail_on = "slower"`: SLOWER, and NOT_COMPARED (head
// changed its workload so that it could not be timed against base: a slowdown not ruled out).
bool fails_under_slower(std::string_view verdict_name);

}  // namespace kblaster
