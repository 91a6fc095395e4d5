// The caveat every report of a verified speedup states (issue 21 B): the speedup and its CI
// come from one process on one GPU, and two GPUs of the same model have disagreed by more than
// such a CI.
#pragma once

#include <string>

#include "report/result_view.h"

namespace kblaster {

// One sentence, the same wherever a speedup is reported: that it was measured on one GPU in one
// process, and by how much another GPU of the same model has differed (measured on the H200).
std::string speedup_caveat();

// Whether `view` reports a verified speedup: an optimize result with a kernel found faster.
bool reports_a_speedup(const ResultView& view);

}  // namespace kblaster
