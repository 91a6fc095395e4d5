// Which CUDA context's timing stands for a launch-bound kernel. On the H200 such a kernel's
// median falls, per context, in a fast mode or a slow one about 5 % higher, and the fast mode
// itself spreads by about 1 %: the fastest context alone is a low outlier as often as not
// (bench/results/2026-12-03-h200-contexts.md).
#pragma once

#include <cstddef>
#include <vector>

namespace kblaster {

// Contexts whose median is within this share of the fastest are in the fast mode.
inline constexpr double kFastModeWidth = 0.02;

// The index of the context at the median of the fast mode: among the contexts whose median is
// within kFastModeWidth of the lowest, the one at the lower median of their medians (the first
// of equals). `medians` must not be empty; non-positive medians (a context with no samples) are
// passed over unless all are.
std::size_t typical_fast_context(const std::vector<double>& medians);

}  // namespace kblaster
