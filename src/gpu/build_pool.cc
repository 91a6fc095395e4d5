#include "gpu/build_pool.h"

#include <algorithm>

namespace kblaster {

BuildPool::BuildPool(unsigned workers)
    : workers_(std::max(1u, workers)),
      slots_(std::make_unique<std::counting_semaphore<>>(workers_)) {}

BuildPool::~BuildPool() {
  closing_->store(true);
  for (auto& [key, job] : jobs_)
    if (job.valid()) job.wait();
}

void BuildPool::start(const std::string& key, Job job) {
  if (jobs_.count(key)) return;
  ++started_;
  std::counting_semaphore<>* slots = slots_.get();
  jobs_.emplace(
      key, std::async(std::launch::async,
                      [slots, closing = closing_, job = std::move(job)]() -> Result<BuildResult> {
                        slots->acquire();
                        struct Release {
                          std::counting_semaphore<>* s;
                          ~Release() { s->release(); }
                        } release{slots};
                        if (closing->load())
                          return Error::internal("build dropped: the pool closed");
                        return job();
                      }));
}

std::optional<Result<BuildResult>> BuildPool::take(const std::string& key) {
  auto it = jobs_.find(key);
  if (it == jobs_.end()) return std::nullopt;
  Result<BuildResult> r = it->second.get();
  jobs_.erase(it);
  return r;
}

}  // namespace kblaster
