// The source form of --maxrregcount=N: `__maxnreg__(N)` on each kernel of the file
// (CUDA 12.4 and later), so that a build which passes no flag caps registers the same.
// Limit: the flag also caps non-inlined __device__ functions; the qualifier caps kernels.
#pragma once

#include <string_view>

#include "transform/source_rewrite.h"

namespace kblaster {

// `source` with `__maxnreg__(cap)` inserted after `__global__` in every kernel
// declaration and definition. Unchanged, with the reason, when the file has no kernel,
// when a kernel has __launch_bounds__ (nvcc refuses both on one kernel) or already has
// __maxnreg__.
SourceRewrite cap_registers_in_source(std::string_view source, int cap);

}  // namespace kblaster
