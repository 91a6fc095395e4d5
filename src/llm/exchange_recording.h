// Every prompt and answer of a run kept under its output directory (issue 19,
// "Reproducibility"), by wrapping the backend that answers them.
#pragma once

#include <string_view>

#include "llm/exchange_store.h"
#include "llm/llm_backend.h"

namespace kblaster {

// An LlmBackend that asks `inner` and stores each exchange in `store` before it returns
// the answer. A remote failure is stored too (and still returned), so that a replay meets
// it at the same step; other failures are not the model's and are only returned. A store
// that cannot be written fails the call with that error. Thread-safe when `inner` is.
// Holds `inner` by reference: it must outlive this.
class RecordingBackend final : public LlmBackend {
 public:
  RecordingBackend(LlmBackend& inner, ExchangeStore store)
      : inner_(inner), store_(std::move(store)) {}

  Result<LlmAnswer> complete(const LlmRequest& request) override;
  // The inner backend's name: the recording does not change who answers.
  std::string_view name() const override { return inner_.name(); }

 private:
  LlmBackend& inner_;
  ExchangeStore store_;
  PromptOccurrences occurrences_;
};

}  // namespace kblaster
