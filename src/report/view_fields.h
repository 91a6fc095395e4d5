// The parts of a result that every reader shares: a verdict read as a Finding,
// a number with its CI, and a profile delta, each error naming its field.
#pragma once

#include <optional>
#include <string>
#include <vector>

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

// The strings of the array at `list`; absent or null is an empty list.
Result<std::vector<std::string>> read_strings(const JsonField& list);

// A roofline ({dram_bytes_per_s, flops_per_s, before: {arithmetic_intensity,
// flops_per_s}, after: {…}}, either end optional); nullopt when absent or null.
Result<std::optional<RooflineView>> read_roofline(const JsonField& roofline);

// The median time of A and of B, each with its 95% distribution-free CI, from an
// A/B's `samples` (reports/schema/ab.schema.json: a_s, b_s in seconds); nullopt when
// the A/B has no samples (results written before they were recorded).
struct SampleTimes {
  Estimate a, b;
};
// Sample times that are not numbers are an error naming them.
Result<std::optional<SampleTimes>> read_sample_times(const JsonField& ab);

// The reciprocal of `e` with its bounds swapped: a time ratio as a speedup.
Estimate reciprocal(const Estimate& e);

}  // namespace kblaster
