#include "gpu/build_pool.h"

#include <algorithm>
#include <chrono>

namespace kblaster {
namespace {

// A job's life on its worker thread: it waits for a slot unless take() claimed it first, and
// runs only if it claims the job itself and the pool is not closing. Whoever claims the job
// takes it out of `in_flight` when done with it: take() at once, the worker at its end.
Result<BuildResult> run_on_worker(std::counting_semaphore<>* slots,
                                  std::shared_ptr<std::atomic<bool>> closing,
                                  std::shared_ptr<std::atomic<int>> in_flight,
                                  std::shared_ptr<std::atomic<bool>> claimed,
                                  std::shared_ptr<BuildPool::Job> job) {
  if (claimed->load()) return Error::internal("build taken before it started");
  slots->acquire();
  struct Release {
    std::counting_semaphore<>* s;
    ~Release() { s->release(); }
  } release{slots};
  if (claimed->exchange(true)) return Error::internal("build taken before it started");
  struct Done {
    std::atomic<int>& n;
    ~Done() { n.fetch_sub(1); }
  } done{*in_flight};
  if (closing->load()) return Error::internal("build dropped: the pool closed");
  return (*job)();
}

}  // namespace

unsigned build_workers_for(unsigned cores) { return cores > 1 ? cores - 1 : 1; }

BuildPool::BuildPool(unsigned workers)
    : workers_(std::max(1u, workers)),
      slots_(std::make_unique<std::counting_semaphore<>>(workers_)) {}

BuildPool::~BuildPool() {
  closing_->store(true);
  for (auto& [key, entry] : jobs_)
    if (entry.result.valid()) entry.result.wait();
  for (auto& f : released_)
    if (f.valid()) f.wait();
}

void BuildPool::start(const std::string& key, Job job) {
  if (jobs_.count(key)) return;
  std::erase_if(released_, [](const std::future<Result<BuildResult>>& f) {
    return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  });
  ++started_;
  Entry entry{
      std::make_shared<std::atomic<bool>>(false), std::make_shared<Job>(std::move(job)), {}};
  in_flight_->fetch_add(1);
  try {
    entry.result = std::async(std::launch::async, run_on_worker, slots_.get(), closing_, in_flight_,
                              entry.claimed, entry.job);
  } catch (...) {  // no thread: the job never runs, so it is not in flight
    in_flight_->fetch_sub(1);
    throw;
  }
  jobs_.emplace(key, std::move(entry));
}

std::optional<Result<BuildResult>> BuildPool::take(const std::string& key) {
  auto it = jobs_.find(key);
  if (it == jobs_.end()) return std::nullopt;
  Entry entry = std::move(it->second);
  jobs_.erase(it);
  if (claim_if_queued(entry)) return (*entry.job)();  // run it here rather than wait behind
  return entry.result.get();
}

bool BuildPool::claim_if_queued(Entry& entry) {
  if (entry.claimed->exchange(true)) return false;  // a worker has it
  in_flight_->fetch_sub(1);
  released_.push_back(std::move(entry.result));  // its worker will find it claimed and end
  return true;
}

void BuildPool::drop_queued_except(const std::set<std::string>& keep) {
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    if (!keep.contains(it->first) && claim_if_queued(it->second))
      it = jobs_.erase(it);
    else
      ++it;  // wanted, or a worker has it
  }
}

bool BuildPool::ready(const std::string& key) const {
  auto it = jobs_.find(key);
  return it != jobs_.end() &&
         it->second.result.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

}  // namespace kblaster
