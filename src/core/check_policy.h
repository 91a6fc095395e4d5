// The exit policy a check runs under. It is read from the head revision's kblaster.toml, which
// the pull request under check may edit: a pull request could pass its own regression with
// `fail_on = "never"` or `min_effect = 0.5`. So where head loosens base's [check], base's holds,
// as a kernel's stricter tolerance does (base_reference.cc); a looser policy takes effect once
// it is merged, and tightening one takes effect at once.
#pragma once

#include <string>
#include <vector>

#include "core/kernel_spec.h"

namespace kblaster {

struct CheckPolicy {
  CheckConfig config;  // what the check applies
  // Each field head loosened and base's value held for, as
  // "[check] min_effect: head's 0.5 is looser than base's 0.015; base's holds". Empty when none.
  std::vector<std::string> kept_from_base;
};

// Head's [check], field by field the stricter of it and base's: the fail_on that fails on more
// (slower, then error, then never) and the smaller min_effect. `base` is null when there is no
// base revision or its config did not load; head's then holds whole.
CheckPolicy check_policy(const CheckConfig& head, const CheckConfig* base);

}  // namespace kblaster
