#include "core/between_machines.h"

namespace kblaster {

std::string speedup_caveat() {
  return "Each speedup and its CI were measured in one process on one machine. Another machine "
         "with the same GPU model can differ by more than that CI: the same scale_rows search "
         "measured 1.30x on one H200 machine and 1.33x on another, with CIs that did not "
         "overlap, so expect a few percent either way on yours.";
}

}  // namespace kblaster
