// How one step of a search ended: the outcome an evaluation gives a candidate and
// the KB stores with the step.
#pragma once

#include <optional>
#include <string_view>

namespace kblaster {

enum class StepOutcome { compile_failure, verify_failure, slower, same, faster };
// The stable spelling ("compile_failure", …, "faster") in the KB and in results.
std::string_view outcome_name(StepOutcome outcome);
// The outcome `name` spells; nullopt for any other text.
std::optional<StepOutcome> parse_outcome(std::string_view name);
// True for slower/same/faster: the step has a measured log speedup (its reward).
inline bool is_measured(StepOutcome o) { return o >= StepOutcome::slower; }

}  // namespace kblaster
