#include "gpu/build_pool.h"

#include <algorithm>
#include <chrono>
#include <mutex>

namespace kblaster {
namespace {

// A job's life on its worker thread: it waits until a worker is free and no job started before
// it is still waiting, unless take() claimed it first; it runs only if it claims the job itself
// and the pool is not closing. Whoever claims the job takes it out of `in_flight` when done with
// it: take() at once, the worker at its end.
Result<BuildResult> run_on_worker(std::shared_ptr<BuildPool::Admission> admission,
                                  std::uint64_t ticket, std::shared_ptr<std::atomic<bool>> closing,
                                  std::shared_ptr<std::atomic<int>> in_flight,
                                  std::shared_ptr<std::atomic<bool>> claimed,
                                  std::shared_ptr<BuildPool::Job> job) {
  {
    std::unique_lock lock(admission->m);
    admission->changed.wait(lock, [&] {
      return claimed->load() || closing->load() ||
             (admission->free > 0 && !admission->waiting.empty() &&
              admission->waiting.front() == ticket);
    });
    std::erase(admission->waiting, ticket);
    if (claimed->load()) {
      admission->changed.notify_all();  // the next in line may be at the front now
      return Error::internal("build taken before it started");
    }
    if (closing->load()) {
      claimed->store(true);  // under the lock: no take() can claim it now
      in_flight->fetch_sub(1);
      admission->changed.notify_all();
      return Error::internal("build dropped: the pool closed");
    }
    --admission->free;
  }
  admission->changed.notify_all();  // the next in line may start too, if a worker is free
  struct Release {
    BuildPool::Admission& a;
    ~Release() {
      {
        std::lock_guard lock(a.m);
        ++a.free;
      }
      a.changed.notify_all();
    }
  } release{*admission};
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
    : workers_(std::max(1u, workers)), admission_(std::make_shared<Admission>()) {
  admission_->free = workers_;
}

BuildPool::~BuildPool() {
  {
    std::lock_guard lock(admission_->m);
    closing_->store(true);
  }
  admission_->changed.notify_all();
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
  const std::uint64_t ticket = next_ticket_++;
  {
    std::lock_guard lock(admission_->m);
    admission_->waiting.push_back(ticket);
  }
  try {
    entry.result = std::async(std::launch::async, run_on_worker, admission_, ticket, closing_,
                              in_flight_, entry.claimed, entry.job);
  } catch (...) {  // no thread: the job never runs, so it is not in flight or in line
    in_flight_->fetch_sub(1);
    std::lock_guard lock(admission_->m);
    std::erase(admission_->waiting, ticket);
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
  {
    // Under the admission lock, so its worker, waiting in line, sees the claim and steps out.
    std::lock_guard lock(admission_->m);
    if (entry.claimed->exchange(true)) return false;  // a worker has it
  }
  admission_->changed.notify_all();
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
