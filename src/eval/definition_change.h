// What a pull request changed in how its own kernel is checked. check verifies head against the
// reference head declares, which the pull request may change, at the stricter of head's and
// base's tolerance; these changes are said beside the verdict, so a reviewer sees them.
#pragma once

#include <string>
#include <vector>

#include "core/kernel_spec.h"

namespace kblaster {

// Each change of `head` against `base` that makes head's check another or a looser one: its
// reference repointed, added or dropped, its reference mode changed, or its tolerance loosened,
// as "head loosens its tolerance (rtol 1e-4 -> 0.1, …); base's holds", or a size of base's that
// head's `requires` leaves out of its verification (sizes_to_verify_with_reference). Empty when
// none.
std::vector<std::string> check_definition_changes(const KernelSpec& base, const KernelSpec& head);

// The tolerance head is verified at: field by field the smaller of head's and base's, since head's
// is the pull request's. A looser tolerance applies once a base revision carries it.
Tolerance stricter_tolerance(const Tolerance& base, const Tolerance& head);

}  // namespace kblaster
