// The state classifier's rules: one ordered table, evaluated first to last, in
// which the first rule that matches decides. Its keys are exactly the states of
// kb/catalogue/states.json, and docs/states.md prints it row by row, with the
// same condition text, in the same order (tests/profile/state_rules_doc_test.cc).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profile/perf_state.h"

namespace kblaster {

struct StateRule {
  std::string_view key;        // "memory.dram_saturated"; the class is the part before the dot
  std::string_view condition;  // the test in words, as docs/states.md prints it
  // One line citing the numbers the rule read, or nullopt when the rule does not
  // hold. A rule never matches on a missing input (an unset optional, an empty
  // stall_share map); it reads `input.total` except where its condition says
  // otherwise. Pure: no I/O, no state.
  std::optional<std::string> (*match)(const ClassifierInput& input);
};

// All rules in evaluation order. The last, latency.no_dominant_bottleneck,
// always matches, so the first match is never absent. The table is static.
const std::vector<StateRule>& state_rules();

// The inputs the rules read that `profile` lacks, by KernelProfile member name
// in declaration order ("dram_throughput_pct", …; "stall_share" when the map is
// empty). The fallback's explanation lists them.
std::vector<std::string> missing_inputs(const KernelProfile& profile);

}  // namespace kblaster
