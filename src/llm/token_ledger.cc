#include "llm/token_ledger.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "llm/token_cost.h"

namespace kblaster {
namespace {

void add_to(TokenTotals& t, std::string_view purpose, const TokenUsage& usage,
            std::optional<double> cost) {
  ++t.calls;
  t.usage.input += usage.input;
  t.usage.output += usage.output;
  TokenUsage& p = t.by_purpose[std::string(purpose)];
  p.input += usage.input;
  p.output += usage.output;
  if (cost)
    t.cost_usd += *cost;
  else
    t.cost_known = false;
}

std::string dollars(double usd) {
  char text[32];
  std::snprintf(text, sizeof text, "$%.4f", usd);
  return text;
}

}  // namespace

void TokenLedger::add(std::string_view kernel, std::string_view purpose, const LlmAnswer& answer) {
  const auto cost = usage_cost_usd(prices_, answer.model, answer.usage);
  const std::lock_guard lock(mutex_);
  add_to(run_, purpose, answer.usage, cost);
  auto it = kernels_.find(kernel);
  if (it == kernels_.end()) it = kernels_.emplace(std::string(kernel), TokenTotals{}).first;
  add_to(it->second, purpose, answer.usage, cost);
}

TokenTotals TokenLedger::run() const {
  const std::lock_guard lock(mutex_);
  return run_;
}

TokenTotals TokenLedger::kernel(std::string_view kernel) const {
  const std::lock_guard lock(mutex_);
  const auto it = kernels_.find(kernel);
  return it == kernels_.end() ? TokenTotals{} : it->second;
}

std::string TokenLedger::cap_reached(std::string_view kernel) const {
  const TokenTotals k = this->kernel(kernel);
  const TokenTotals run = this->run();
  const std::int64_t tokens = k.usage.input + k.usage.output;
  if (caps_.max_tokens_per_kernel > 0 && tokens >= caps_.max_tokens_per_kernel)
    return "the LLM token cap (" + std::to_string(caps_.max_tokens_per_kernel) +
           " per kernel) is reached: " + std::to_string(tokens) + " tokens";
  if (caps_.max_cost_usd > 0 && run.cost_usd >= caps_.max_cost_usd)
    return "the LLM cost cap (" + dollars(caps_.max_cost_usd) +
           ") is reached: " + dollars(run.cost_usd) +
           (run.cost_known ? "" : " at least (a model has no price)");
  return "";
}

nlohmann::json to_json(const TokenTotals& t) {
  nlohmann::json by_purpose = nlohmann::json::object();
  for (const auto& [purpose, u] : t.by_purpose)
    by_purpose[purpose] = {{"tokens_in", u.input}, {"tokens_out", u.output}};
  return {{"calls", t.calls},
          {"tokens_in", t.usage.input},
          {"tokens_out", t.usage.output},
          {"cost_usd", t.cost_known ? nlohmann::json(t.cost_usd) : nlohmann::json(nullptr)},
          {"by_purpose", by_purpose}};
}

}  // namespace kblaster
