// The parts of a result that every reader shares: a verdict read as a Finding,
// a number with its CI, and a profile delta, each error naming its field.
#pragma once

#include <optional>

#include "core/status.h"
#include "report/json_field.h"
#include "report/result_view.h"

namespace kblaster {

// The Finding spelled by the string at `field`; any other spelling is an error.
Result<Finding> read_finding(const JsonField& field);

// `value` with the bounds `low` and `high`; nullopt when `value` is absent or null.
// Bounds absent, null, or not finite read as no bound.
Result<std::optional<Estimate>> read_estimate(const JsonField& value, const JsonField& low,
                                              const JsonField& high);

// A profile delta as profile/profile_delta.h writes it ({metrics: [{metric, unit,
// before, after}], state_before, state_after}); nullopt when absent or null.
Result<std::optional<ProfileChange>> read_profile_change(const JsonField& delta);

// The reciprocal of `e` with its bounds swapped: a time ratio as a speedup.
Estimate reciprocal(const Estimate& e);

}  // namespace kblaster
