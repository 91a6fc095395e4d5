// Adds __launch_bounds__ matched to the block size a kernel is launched with,
// so that nvcc can budget registers for exactly that many threads.
// Limits: only launches in the same file count (a kernel launched elsewhere too
// may get a bound too small for it); overloads and instantiations of one name
// share the bound. Apply it after any change to block-size constants: a bound
// written as a number does not follow later edits (see find_launch_constants).
#pragma once

#include <string_view>

#include "transform/source_rewrite.h"

namespace kblaster {

// For each kernel launched here as `name<<<grid, block, ...>>>` with one
// compile-time block size (literal, const/constexpr/#define constant, dim3 of
// those), inserts `__launch_bounds__(N)` after `__global__` in each of its
// declarations, unless one has a bound already. N is written as the block
// expression itself (e.g. `BLOCK * kTileRows`) when its names mean the same at the
// kernel, so that -D overrides keep it exact, and as a number otherwise. Kernels
// launched with several or non-constant block sizes are left alone, and the
// description says why.
SourceRewrite add_launch_bounds(std::string_view source);

}  // namespace kblaster
