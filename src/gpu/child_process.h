// A long-lived, sandboxed child spoken to in lines: one request line to its
// stdin, one response line from its stdout. kblaster-harness runs this way.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "gpu/sandbox.h"

namespace kblaster {

// Why a request got no response line. (A child that cannot be started is
// ChildProcess::start's Error instead.)
enum class ChildFailure {
  timeout,    // no complete line by the deadline; the process group was killed
  exited,     // it exited, or closed its stdout, before answering
  oversized,  // it wrote more than max_line_bytes without a newline; the group was killed
};

struct ChildError {
  ChildFailure failure = ChildFailure::exited;
  std::string message;      // names the program and what happened, ending with the stderr tail
  int exit_code = -1;       // its exit status, 128 + signal when a signal ended it; -1 if unknown
  std::string stderr_tail;  // the last bytes it wrote to stderr
};

// A response line, or why there is none.
struct ChildReply {
  std::string line;                   // the response without its '\n'
  std::optional<ChildError> failure;  // set = no response
  bool ok() const { return !failure; }
};

struct ChildSpec {
  std::vector<std::string> argv;      // argv[0] is looked up on the caller's PATH if it has no '/'
  std::filesystem::path working_dir;  // empty = the caller's
  SandboxPolicy sandbox;
  std::size_t stderr_tail_bytes = 4096;       // how much of its stderr is kept for messages
  std::size_t max_line_bytes = 256ULL << 20;  // a longer response is a failure
};

// Owns a running child in its own process group, with pipes for stdin, stdout
// and stderr. Destruction kills the group and reaps the child. Not thread-safe.
class ChildProcess {
 public:
  // Forks, applies spec.sandbox, and execs spec.argv. Error::environment when
  // it cannot: no such program, or a sandbox step (or required isolation) failed.
  static Result<ChildProcess> start(const ChildSpec& spec);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;  // one owner kills and reaps the child
  ChildProcess& operator=(const ChildProcess&) = delete;
  ChildProcess(ChildProcess&&) noexcept;
  ChildProcess& operator=(ChildProcess&&) noexcept;

  // Writes `line` (no '\n' in it) plus '\n', and reads one line back, within
  // timeout_s (capped at the policy's wall_timeout_s). After any failure the
  // group is killed and reaped, running() is false, and later requests fail as exited.
  ChildReply request(std::string_view line, double timeout_s);

  // Closes the child's stdin and waits up to timeout_s for it to exit by itself
  // (a wrapper such as ncu writes its results then); kills the group after that.
  // The exit code (128 + signal when killed), or the failure.
  Result<int> finish(double timeout_s);

  bool running() const;
  pid_t pid() const;  // the leader, which is also the process group id; -1 once reaped
  const SandboxReport& sandbox() const;

 private:
  struct State;
  explicit ChildProcess(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace kblaster
