// Which of check's verdicts fail a pull request whatever `fail_on` asks beyond "never": the one
// policy behind check's exit code (eval/check_step) and its GitHub check run, annotations and
// claim reviews (github/), which read saved results by the verdicts' stable names.
#pragma once

#include <string_view>

namespace kblaster {

// True for REGRESSION, BUILD_FAILED, REJECTED and UNVERIFIED (a changed kernel nothing could
// check fails closed); false for every other name, SLOWER included (fail_on decides that).
bool is_failing_verdict(std::string_view verdict_name);

}  // namespace kblaster
