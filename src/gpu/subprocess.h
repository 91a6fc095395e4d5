// Runs one program to completion and captures what it printed: the one place
// kblaster starts short-lived child processes (nvcc, ncu). The long-lived,
// sandboxed harness child is gpu/child_process.h; both own children as a ProcessGroup.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "gpu/sandbox.h"

namespace kblaster {

// A started child that leads its own process group. If it is still unreaped
// when its owner dies, the group gets SIGKILL and the child is reaped.
// Copy deleted: only one owner may reap it.
class ProcessGroup {
 public:
  explicit ProcessGroup(pid_t pid = -1) : pid_(pid) {}
  ~ProcessGroup() { release(); }
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;
  ProcessGroup(ProcessGroup&& other) noexcept : pid_(std::exchange(other.pid_, -1)) {}
  ProcessGroup& operator=(ProcessGroup&& other) noexcept {
    if (this != &other) {
      release();
      pid_ = std::exchange(other.pid_, -1);
    }
    return *this;
  }

  pid_t pid() const { return pid_; }  // the leader (= the group id); -1 once reaped
  // Hands the child to the caller, who must reap it (or own it again); -1 when none.
  pid_t disown() { return std::exchange(pid_, -1); }
  bool owned() const { return pid_ > 0; }
  // SIGKILL to every process in the group; a no-op once reaped.
  void kill_group();
  // Whether the leader has exited. It stays unreaped, so the group id cannot be
  // reused and kill_group still reaches what it left behind.
  bool exited() const;
  // Reaps the leader: its exit code (128 + signal when killed), or the errno
  // of a failed waitpid (ECHILD when SIGCHLD is ignored, say).
  Result<int> wait();

 private:
  void release();  // kill_group, then wait, when still owned
  pid_t pid_;
};

struct ProcessOptions {
  std::filesystem::path working_dir;                    // empty = the caller's
  std::optional<double> timeout_seconds;                // wall clock; nullopt = wait forever
  std::optional<std::vector<std::string>> environment;  // "NAME=VALUE" entries; nullopt = inherit
  // Set: the program runs in this sandbox (gpu/sandbox.h), whose environment
  // replaces `environment`. Unset: a plain posix_spawn, for trusted tools only.
  std::optional<SandboxPolicy> sandbox;
  // The most of its output kept. Past it the rest is read and dropped (so the child
  // never blocks on a full pipe), and ProcessResult::output_truncated says so: a
  // compile of hostile code can print without end.
  std::size_t max_output_bytes = std::size_t{16} << 20;
};

struct ProcessResult {
  int exit_code = 0;                     // the exit status, or 128 + the signal that ended it
  std::string output;                    // stdout and stderr, interleaved as written
  std::size_t output_dropped = 0;        // bytes past options.max_output_bytes, read and dropped
  bool timed_out = false;                // the timeout expired and the process group was killed
  double seconds = 0.0;                  // wall-clock time from spawn to exit
  std::optional<SandboxReport> sandbox;  // what the sandbox gave it, when it ran in one
};

// Runs argv[0] (looked up on the caller's PATH when it has no '/') with
// argv[1..], no shell, stdin from /dev/null, in a process group of its own.
// On timeout the whole group gets SIGKILL. A program that cannot be started
// (or sandboxed as options.sandbox requires) is Error::environment naming it;
// a non-zero exit is a result, not an error.
Result<ProcessResult> run_process(const std::vector<std::string>& argv,
                                  const ProcessOptions& options = {});

}  // namespace kblaster
