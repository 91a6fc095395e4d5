// What an LLM call's tokens cost, from the per-model price table of [llm.prices].
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "llm/llm_backend.h"
#include "llm/llm_settings.h"

namespace kblaster {

// USD for `usage` at `model`'s price: input * input_per_mtok / 1e6 + output * output_per_mtok
// / 1e6. nullopt when the table has no price for `model` (an unknown cost, not a free one).
std::optional<double> usage_cost_usd(const std::map<std::string, ModelPrice, std::less<>>& prices,
                                     std::string_view model, const TokenUsage& usage);

}  // namespace kblaster
