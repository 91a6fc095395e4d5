// Result views made in tests, without a file: a check-like result with `n`
// kernels, each with a ratio, verification, a profile delta and provenance.
#pragma once

#include <string>

#include "report/result_view.h"

namespace kblaster::testing {

// Kernel i is "k<i>", SLOWER with ratio 1.5 (1.4–1.6) and `reason`, one line of
// verification, a two-row profile delta; the result has three provenance facts.
ResultView check_view(std::size_t n, const std::string& reason = "slower by 50%");

}  // namespace kblaster::testing
