#include "report/speedup_caveat.h"

#include <algorithm>

namespace kblaster {

std::string speedup_caveat() {
  // bench/results/2026-11-30-decisive.md: the same build and search, 1.303-1.307x on one H200
  // (seeds 31-47) and 1.329-1.332x on another (seeds 53-61), each run's CI under 1 % wide.
  return "Each speedup and its CI were measured in one process on one GPU. Another GPU of the "
         "same model can differ by more than that CI: the same scale_rows change measured "
         "1.30x on one H200 and 1.33x on another, with CIs that did not overlap, so expect a "
         "few percent either way on your machine.";
}

bool reports_a_speedup(const ResultView& view) {
  return view.kind == ResultKind::optimize &&
         std::any_of(view.kernels.begin(), view.kernels.end(),
                     [](const KernelView& k) { return k.finding == Finding::faster; });
}

}  // namespace kblaster
