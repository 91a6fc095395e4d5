// Candidate builds run ahead on background threads while the GPU measures (issue
// 7's pipelining): the search names the children it may evaluate next, and takes
// a build when it needs it, waiting only if that build is still running.
#pragma once

#include <atomic>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <semaphore>
#include <string>

#include "core/status.h"
#include "gpu/candidate_builder.h"

namespace kblaster {

class BuildPool {
 public:
  using Job = std::function<Result<BuildResult>()>;

  // At most `workers` (at least 1) jobs run at once; the rest queue.
  explicit BuildPool(unsigned workers);
  ~BuildPool();                          // waits for the jobs in flight
  BuildPool(const BuildPool&) = delete;  // owns running threads
  BuildPool& operator=(const BuildPool&) = delete;

  // Starts `job` under `key` unless a job for `key` was started and not taken.
  // Not thread-safe: call from one thread (the search's).
  void start(const std::string& key, Job job);
  // The result of the job under `key` (waiting for it); nullopt if none was started.
  std::optional<Result<BuildResult>> take(const std::string& key);
  // Jobs started so far, for reports.
  int started() const { return started_; }
  // Jobs started and not yet taken (running, queued or done).
  std::size_t pending() const { return jobs_.size(); }
  unsigned workers() const { return workers_; }

 private:
  unsigned workers_;
  std::unique_ptr<std::counting_semaphore<>> slots_;
  std::shared_ptr<std::atomic<bool>> closing_ = std::make_shared<std::atomic<bool>>(false);
  std::map<std::string, std::future<Result<BuildResult>>> jobs_;
  int started_ = 0;
};

}  // namespace kblaster
