// Adds `#pragma unroll` before device-code loops whose trip count is a
// compile-time constant, so that nvcc unrolls them fully.
// Limits: only `for (init; i OP bound; step)` loops whose `for` starts its line,
// inside __global__ / __device__ functions (not lambdas); the body is assumed not
// to write the loop variable; template parameters do not count as constants.
#pragma once

#include <string_view>

#include "transform/source_rewrite.h"

namespace kblaster {

struct UnrollLimits {
  int max_trip_count = 64;  // longer loops are left to nvcc's heuristics
};

// Puts `#pragma unroll` on its own line, indented like the loop, before each
// such `for` whose start, bound and step are literals or const/constexpr/#define
// constants and whose trip count is 2..max_trip_count (`i < 8; ++i`, `s = 16; s
// > 0; s >>= 1`). Loops already preceded by a #pragma unroll/nounroll are skipped.
SourceRewrite unroll_constant_loops(std::string_view source, const UnrollLimits& limits = {});

}  // namespace kblaster
