// Candidate builds run ahead on background threads while the GPU measures (issue
// 7's pipelining; issue 21 B2): the search names the children it may evaluate next, and takes
// a build when it needs it. Queued builds start in the order they were started (the search
// hands its likeliest first). A build still queued when it is taken runs at once on the taker's
// thread, so the child the GPU waits for never waits behind guesses; one already running is
// waited for.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/status.h"
#include "gpu/candidate_builder.h"

namespace kblaster {

// How many builds to run ahead on a machine with `cores` hardware threads: all but one, which
// the search and the harness's host side keep; at least 1.
unsigned build_workers_for(unsigned cores);

class BuildPool {
 public:
  using Job = std::function<Result<BuildResult>()>;

  // At most `workers` (at least 1) jobs run at once in the background; the rest queue.
  explicit BuildPool(unsigned workers);
  ~BuildPool();                          // waits for the jobs in flight
  BuildPool(const BuildPool&) = delete;  // owns running threads
  BuildPool& operator=(const BuildPool&) = delete;

  // Starts `job` under `key` unless a job for `key` was started and not taken.
  // Not thread-safe: call from one thread (the search's).
  void start(const std::string& key, Job job);
  // The result of the job under `key`: waited for while it runs, run now on this thread if it
  // had not started; nullopt if none was started.
  std::optional<Result<BuildResult>> take(const std::string& key);
  // Drops every job still queued (no worker started it) whose key is not in `keep`: guesses the
  // caller no longer expects to need, which would otherwise hold the queue. Running and finished
  // jobs stay, to be taken.
  void drop_queued_except(const std::set<std::string>& keep);
  // Whether the job under `key` has finished, so take() returns at once.
  bool ready(const std::string& key) const;
  // Jobs started so far, for reports.
  int started() const { return started_; }
  // Jobs started and not yet taken (running, queued or done).
  std::size_t pending() const { return jobs_.size(); }
  // Jobs queued or running: what a caller deciding whether to start more should count (a
  // finished job nobody took does not hold a worker).
  std::size_t in_flight() const {
    return static_cast<std::size_t>(std::max(0, in_flight_->load()));
  }
  unsigned workers() const { return workers_; }

  // Who runs next: jobs wait in line, in the order started, for one of `free` workers. Shared
  // with the jobs' threads, which may outlive a take().
  struct Admission {
    std::mutex m;
    std::condition_variable changed;  // a worker freed, a job left the line, a claim, closing
    unsigned free = 0;
    std::deque<std::uint64_t> waiting;  // tickets of jobs not started, oldest first
  };

 private:
  struct Entry {
    std::shared_ptr<std::atomic<bool>> claimed;  // by whichever runs the job: a worker or take()
    std::shared_ptr<Job> job;
    std::future<Result<BuildResult>> result;  // the worker's; empty if take() ran the job
  };

  // Claims `entry`'s job for the caller if no worker started it: it leaves in_flight() and its
  // worker's future is kept until that worker ends. False when a worker has it.
  bool claim_if_queued(Entry& entry);

  unsigned workers_;
  std::shared_ptr<Admission> admission_;
  std::uint64_t next_ticket_ = 0;
  std::shared_ptr<std::atomic<bool>> closing_ = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<std::atomic<int>> in_flight_ = std::make_shared<std::atomic<int>>(0);
  std::map<std::string, Entry> jobs_;
  // Workers whose job take() ran instead: waited for on close, pruned as they end.
  std::vector<std::future<Result<BuildResult>>> released_;
  int started_ = 0;
};

}  // namespace kblaster
