// Requests in flight at once ([llm] in_flight): the search asks the model from several
// threads, and a pool hands each call a backend no other call is using.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "llm/llm_backend.h"

namespace kblaster {

// An LlmBackend that runs at most `slots` calls at once; a call beyond them waits for one to
// end. Thread-safe. Built from one backend per slot (an HTTP backend, which is not
// thread-safe, each over its own transport) or from one thread-safe backend that every slot
// shares (command, replay).
class BackendPool final : public LlmBackend {
 public:
  // One slot per backend in `per_slot`, which must not be empty.
  explicit BackendPool(std::vector<std::unique_ptr<LlmBackend>> per_slot);
  // `slots` (at least 1) calls at once of `shared`, which must be thread-safe.
  BackendPool(std::unique_ptr<LlmBackend> shared, int slots);

  // The answer of whichever slot's backend is free first.
  Result<LlmAnswer> complete(const LlmRequest& request) override;
  std::string_view name() const override { return owned_.front()->name(); }
  int slots() const { return static_cast<int>(free_.size() + busy_); }

 private:
  std::vector<std::unique_ptr<LlmBackend>> owned_;
  std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<LlmBackend*> free_;  // the slots not answering now
  int busy_ = 0;
};

}  // namespace kblaster
