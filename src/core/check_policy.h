// The exit policy a check runs under. It is read from the head revision's kblaster.toml, which
// the change under check may edit: a pull request could pass its own regression with
// `fail_on = "never"` or `min_effect = 0.5`. So where head loosens the base revision's [check],
// base's holds, as a kernel's stricter tolerance does (base_reference.cc); where base has no
// config that loaded (a new branch, a first kblaster.toml, a broken one), the defaults hold in
// its place. A looser policy takes effect once a base revision carries it; a stricter one at
// once. This guards the policy against the change it judges, not against a base revision the
// author chose (a push's `before` on the author's own branch is theirs to set).
#pragma once

#include <string>
#include <vector>

#include "core/kernel_spec.h"

namespace kblaster {

struct CheckPolicy {
  CheckConfig config;  // what the check applies
  // Each field head loosened and the floor's value held for, as
  // "[check] min_effect: head's 0.5 is looser than base's 0.015; base's holds". Empty when none.
  std::vector<std::string> kept_from_base;
};

// Head's [check], field by field the stricter of it and the floor's: the fail_on that fails on
// more (slower, then error, then never) and the smaller min_effect. The floor is `base`, or
// CheckConfig's defaults where `base` is null (no base revision, or its config did not load).
CheckPolicy check_policy(const CheckConfig& head, const CheckConfig* base);

}  // namespace kblaster
