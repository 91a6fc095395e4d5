// Which results carry the caveat every report of a verified speedup states (issue 21 B;
// core/between_machines.h holds the sentence).
#pragma once

#include "core/between_machines.h"
#include "report/result_view.h"

namespace kblaster {

// Whether `view` reports a verified speedup: an optimize result with a kernel found faster.
// (check's FASTER is head against base in one process, a comparison, not a speedup claimed
// for the code.)
bool reports_a_speedup(const ResultView& view);

}  // namespace kblaster
