// What check times base against head on when the pull request edited its kernel's definition.
// The pull request controls head's kblaster.toml, so a definition edit must not switch the
// timing off: a tolerance shapes the verification, not the workload, and a size only one side
// declares leaves only that size out.
#pragma once

#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "core/status.h"

namespace kblaster {

// Narrows `base` and `head` to the sizes both declare, in base's order, then to those both
// accept (keep_common_sizes). Returns one line per size left out of the timing ("n=1001 left
// out of the timing: only head declares it"). Error::usage, naming why, when they declare no
// size in common, accept none, or differ in arguments, stream use or constants
// (check_same_workload, tolerances aside): then the two cannot be timed on one input.
Result<std::vector<std::string>> align_for_timing(KernelSpec& base, KernelSpec& head);

}  // namespace kblaster
