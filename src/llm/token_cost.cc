#include "llm/token_cost.h"

namespace kblaster {

std::optional<double> usage_cost_usd(const std::map<std::string, ModelPrice, std::less<>>& prices,
                                     std::string_view model, const TokenUsage& usage) {
  const auto it = prices.find(model);
  if (it == prices.end()) return std::nullopt;
  constexpr double kPerMillion = 1e-6;
  return (static_cast<double>(usage.input) * it->second.input_per_mtok +
          static_cast<double>(usage.output) * it->second.output_per_mtok) *
         kPerMillion;
}

}  // namespace kblaster
