#include "llm/backend_pool.h"

#include <algorithm>

namespace kblaster {

BackendPool::BackendPool(std::vector<std::unique_ptr<LlmBackend>> per_slot)
    : owned_(std::move(per_slot)) {
  for (const auto& b : owned_) free_.push_back(b.get());
}

BackendPool::BackendPool(std::unique_ptr<LlmBackend> shared, int slots) {
  owned_.push_back(std::move(shared));
  free_.assign(static_cast<std::size_t>(std::max(1, slots)), owned_.front().get());
}

Result<LlmAnswer> BackendPool::complete(const LlmRequest& request) {
  LlmBackend* backend = nullptr;
  {
    std::unique_lock lock(mutex_);
    freed_.wait(lock, [&] { return !free_.empty(); });
    backend = free_.back();
    free_.pop_back();
    ++busy_;
  }
  auto answer = backend->complete(request);
  {
    const std::lock_guard lock(mutex_);
    free_.push_back(backend);
    --busy_;
  }
  freed_.notify_one();
  return answer;
}

}  // namespace kblaster
