// The source form of -use_fast_math's transcendentals: single-precision math calls in
// device code replaced by the hardware intrinsics that flag would select (expf ->
// __expf, …), so that a repository's own build, which does not pass the flag, compiles
// the fast versions.
// Limits: the flag's other effects (flush-to-zero, approximate division and square
// root, contraction) have no per-call source form here and are not carried; callers
// re-verify and re-time the rewritten source. Only calls inside the bodies of
// __global__ and __device__ functions of this file change (not `__host__ __device__`
// ones, where an intrinsic does not compile for the host); a call qualified with `::`,
// `std::` or `.` is left alone.
#pragma once

#include <string_view>

#include "transform/source_rewrite.h"

namespace kblaster {

// `source` with each call of expf, exp10f, logf, log2f, log10f, sinf, cosf, tanf,
// sincosf and powf in device code replaced by its intrinsic (__expf, …); the description
// counts the calls per function ("expf -> __expf (2)"). Unchanged, with the reason, when
// device code calls none of them.
SourceRewrite use_fast_intrinsics(std::string_view source);

}  // namespace kblaster
