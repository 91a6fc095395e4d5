#include "profile/perf_state.h"

#include "profile/state_rules.h"

namespace kblaster {

// `features` is left empty: the caller fills it from input.signature.features()
// (code_signature.cc), so the classifier stays a pure function of its inputs'
// numbers and flags.
PerfState classify(const ClassifierInput& input) {
  for (const StateRule& rule : state_rules()) {
    std::optional<std::string> why = rule.match(input);
    if (!why) continue;
    PerfState state;
    state.key = std::string(rule.key);
    state.bottleneck = state.key.substr(0, state.key.find('.'));
    state.explanation = std::move(*why);
    if (input.kernels.size() == 1) state.launch = {input.total.grid_size, input.total.sm_count};
    return state;
  }
  // Unreachable: the table's last rule, the fallback, always matches.
  return {"latency.no_dominant_bottleneck", "latency", "no rule matched", {}, {}};
}

}  // namespace kblaster
