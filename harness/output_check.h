// Element-wise checks of a launch's buffers against what they should hold.
// Pure host code over byte snapshots; each returns a failed Verdict or passed.
#pragma once

#include <vector>

#include "guard_region.h"
#include "verdict.h"
#include "workload.h"

namespace kblaster::harness {

struct Tolerance {
  double rtol = 0.0;
  double atol = 0.0;
};

// {"rtol": …, "atol": …}; a missing field is 0.
Tolerance parse_tolerance(const nlohmann::json& j);

// Outputs against the reference: NaN/Inf where the reference is finite is
// `nonfinite`, |got - ref| > atol + rtol*|ref| is `wrong_result`. `outputs`
// lists the output arguments in the snapshots' order.
Verdict compare_outputs(const std::vector<const ArgDesc*>& outputs, const OutputSnapshot& got,
                        const OutputSnapshot& expected, const Tolerance& tolerance);

// Elements of role=out buffers that kept poison `p1` in `first` and `p2` in `second`.
Verdict find_unwritten(const std::vector<const ArgDesc*>& outputs, const OutputSnapshot& first,
                       const OutputSnapshot& second, unsigned char p1, unsigned char p2);

// Input buffers whose bytes differ from what was uploaded.
Verdict find_mutated(const std::vector<const ArgDesc*>& inputs, const OutputSnapshot& uploaded,
                     const OutputSnapshot& after);

// The `out_of_bounds_write` verdict for `damage` to `buffer`'s guard on `side`,
// with the first changed byte's offset from the buffer's start in bytes and
// elements (negative before the start; bytes() and elements at the end).
Verdict out_of_bounds_write(const ArgDesc& buffer, GuardSide side, const GuardDamage& damage);

}  // namespace kblaster::harness
