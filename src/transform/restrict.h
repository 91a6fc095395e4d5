// Adds __restrict__ to the pointer parameters of kernels, so that nvcc may keep
// loads in registers and use the read-only path.
// Limits: a parameter counts when it has exactly one top-level '*' and no '&',
// '(' or '[' outside template arguments; pointer typedefs (`using P = float*;`)
// and template type parameters that are pointers are not seen.
#pragma once

#include <string_view>

#include "transform/source_rewrite.h"

namespace kblaster {

// Adds `__restrict__` after the '*' of every single-pointer parameter of every
// __global__ declaration and definition that lacks it (`float* out` ->
// `float* __restrict__ out`). Leaves T**, references and restrict ones alone.
// Correct only if the kernel's pointers never alias, which the caller verifies.
SourceRewrite add_restrict(std::string_view source);

}  // namespace kblaster
