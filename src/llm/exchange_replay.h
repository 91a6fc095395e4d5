// `--replay DIR`: a search answered from the exchanges a recorded run stored, with no
// network and no model, so a search can be run again and tests need no LLM.
#pragma once

#include <string_view>

#include "llm/exchange_store.h"
#include "llm/llm_backend.h"

namespace kblaster {

// An LlmBackend (name "replay") that answers each request with the stored answer of the
// same prompt and occurrence (ExchangeStore), and a stored failure with the same
// Error::remote. A prompt with no stored answer is an Error::usage naming the prompt's hash
// and purpose: the run being replayed asked something else. Thread-safe.
class ReplayBackend final : public LlmBackend {
 public:
  explicit ReplayBackend(ExchangeStore store) : store_(std::move(store)) {}

  Result<LlmAnswer> complete(const LlmRequest& request) override;
  std::string_view name() const override { return "replay"; }

 private:
  ExchangeStore store_;
  PromptOccurrences occurrences_;
};

}  // namespace kblaster
