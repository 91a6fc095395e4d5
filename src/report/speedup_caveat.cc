#include "report/speedup_caveat.h"

#include <algorithm>

namespace kblaster {

bool reports_a_speedup(const ResultView& view) {
  return view.kind == ResultKind::optimize &&
         std::any_of(view.kernels.begin(), view.kernels.end(),
                     [](const KernelView& k) { return k.finding == Finding::faster; });
}

}  // namespace kblaster
