// What a pull request changed in how its own kernel is checked. check verifies head against the
// reference head declares, which the pull request may change, at the stricter of head's and
// base's tolerance; these changes are said beside the verdict, so a reviewer sees them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "core/source_tree.h"

namespace kblaster {

// Each change of `head` against `base` that makes head's check another or a looser one: its
// reference repointed, added or dropped, its reference mode changed, or its tolerance loosened,
// as "head loosens its tolerance (rtol 1e-4 -> 0.1, …); base's holds", or a size of base's that
// head's `requires` leaves out of its verification (sizes_to_verify_with_reference). Empty when
// none.
std::vector<std::string> check_definition_changes(const KernelSpec& base, const KernelSpec& head);

// "head edits its reference file `k/ref.cpp`" when head and base name the same reference file and
// its bytes differ between `base_tree` and `head_tree` (the two revisions): the reference is what
// head is judged against, so a reviewer must see an edit to it. nullopt otherwise. Headers the
// reference includes are not compared.
std::optional<std::string> reference_edit(const KernelSpec& base, const KernelSpec& head,
                                          const SourceTree& base_tree, const SourceTree& head_tree);

// The tolerance head is verified at: field by field the smaller of head's and base's, since head's
// is the pull request's. A looser tolerance applies once a base revision carries it.
Tolerance stricter_tolerance(const Tolerance& base, const Tolerance& head);

}  // namespace kblaster
