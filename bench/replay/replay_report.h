// The replayed ablation's report: per kernel warm wins / cold wins / even, the total
// with its sign test, where the answers came from, and the fidelity check against the
// recorded cold runs. Headed as a model, not a measurement.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "recorded_outcomes.h"
#include "replay_protocol.h"

namespace kblaster {

void print_report(std::ostream& out, const std::map<std::string, KernelOutcomes>& recorded,
                  const ReplayProtocol& protocol, const ReplayedAblation& replayed);

nlohmann::json report_json(const std::map<std::string, KernelOutcomes>& recorded,
                           const ReplayProtocol& protocol, const ReplayedAblation& replayed);

}  // namespace kblaster
