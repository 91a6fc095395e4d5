// Tokens in and out, and what they cost, counted per call and summed per kernel and per run
// (issue 19, "Cost"), with the caps that stop a search cleanly.
#pragma once

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "llm/llm_backend.h"
#include "llm/llm_settings.h"

namespace kblaster {

// The caps of a search's LLM use; 0 = none.
struct LlmCaps {
  std::int64_t max_tokens_per_kernel = 0;  // tokens in + out, per kernel (--max-tokens-per-kernel)
  double max_cost_usd = 0;                 // USD for the whole run (--max-cost)
};

// Sums of one scope: calls, tokens, and cost. `cost_known` is false once any call's model
// had no price: the cost is then a lower bound, and a cost cap cannot be checked.
struct TokenTotals {
  int calls = 0;
  TokenUsage usage;
  double cost_usd = 0;
  bool cost_known = true;
  std::map<std::string, TokenUsage> by_purpose;  // "apply", "repair", "review", "gap"
};

// Counts every call of a run. Thread-safe: the search asks the model from several threads.
class TokenLedger {
 public:
  explicit TokenLedger(std::map<std::string, ModelPrice, std::less<>> prices = {},
                       LlmCaps caps = {})
      : prices_(std::move(prices)), caps_(caps) {}

  // Adds one answered call of `kernel` for `purpose`, priced by the answer's model.
  void add(std::string_view kernel, std::string_view purpose, const LlmAnswer& answer);

  // The run's sums, all kernels together.
  TokenTotals run() const;
  // The kernel's sums; empty totals for a kernel with no call.
  TokenTotals kernel(std::string_view kernel) const;

  // Why `kernel` may make no more calls: "the LLM token cap (N per kernel) is reached: M
  // tokens" or "the LLM cost cap ($X) is reached: $Y"; "" when it may.
  std::string cap_reached(std::string_view kernel) const;

 private:
  std::map<std::string, ModelPrice, std::less<>> prices_;
  LlmCaps caps_;
  mutable std::mutex mutex_;
  TokenTotals run_;
  std::map<std::string, TokenTotals, std::less<>> kernels_;
};

// {"calls", "tokens_in", "tokens_out", "cost_usd" (null when unknown), "by_purpose": {purpose:
// {"tokens_in", "tokens_out"}}}: how result.json records a scope.
nlohmann::json to_json(const TokenTotals& totals);

}  // namespace kblaster
