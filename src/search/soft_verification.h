// Static soft verification of a search result (DESIGN.md, "Knowledge Base and
// MAIC-RL", step 5): what the candidate's source gained against the baseline's
// that could time or compute something other than the kernel's work.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

// One finding per rule the candidate breaks, e.g. "creates a stream
// (cudaStreamCreate), which the baseline does not"; empty when it passes. Rules:
// no new streams, host threads, timers or clock reads, library shortcuts
// (cuBLAS, cuDNN, CUTLASS, Thrust, CUB) or device synchronisation, and no fewer
// kernel launches than the baseline. Comments and strings are not read, except
// for clock registers in inline PTX, which live in string literals.
std::vector<std::string> soft_verification_findings(std::string_view baseline,
                                                    std::string_view candidate);

}  // namespace kblaster
