#include "gpu/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "gpu/file_descriptor.h"
#include "gpu/sandboxed_spawn.h"
#include "gpu/subprocess.h"

namespace kblaster {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

Error spawn_error(const std::string& program, const std::string& what, int err) {
  return Error::environment("cannot run '" + program + "': " + what + ": " + std::strerror(err));
}

// Both ends of a close-on-exec pipe. When pipe2 fails both are -1 and `error` says why.
struct Pipe {
  Pipe() : Pipe(open()) {}
  FileDescriptor read_end, write_end;
  int error;

 private:
  struct Fds {
    int read = -1, write = -1, error = 0;
  };
  static Fds open() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return {-1, -1, errno};
    return {fds[0], fds[1], 0};
  }
  explicit Pipe(Fds f) : read_end(f.read), write_end(f.write), error(f.error) {}
};

bool set_nonblocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  return flags >= 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

// write(2) that reports a closed reader as EPIPE without raising SIGPIPE here.
ssize_t write_without_sigpipe(int fd, const char* data, std::size_t size) {
  sigset_t sigpipe, old, pending;
  ::sigemptyset(&sigpipe);
  ::sigaddset(&sigpipe, SIGPIPE);
  if (const int e = ::pthread_sigmask(SIG_BLOCK, &sigpipe, &old)) {
    errno = e;
    return -1;
  }
  const bool was_pending = ::sigpending(&pending) == 0 && ::sigismember(&pending, SIGPIPE) == 1;
  const ssize_t n = ::write(fd, data, size);
  const int write_errno = errno;
  if (n < 0 && write_errno == EPIPE && !was_pending) {
    const timespec now{};  // take the SIGPIPE our write raised, without waiting
    while (::sigtimedwait(&sigpipe, nullptr, &now) < 0 && errno == EINTR) {
    }
  }
  // Restoring a mask we just read cannot fail (EINVAL needs a bad `how`).
  static_cast<void>(::pthread_sigmask(SIG_SETMASK, &old, nullptr));
  errno = write_errno;
  return n;
}

// "exited with status 3", "was killed by signal 9 (Killed)".
std::string describe_exit(int code) {
  if (code < 0) return "ended (its exit status is unknown)";
  if (code < 128) return "exited with status " + std::to_string(code);
  return "was killed by signal " + std::to_string(code - 128) + " (" + ::strsignal(code - 128) +
         ")";
}

}  // namespace

struct ChildProcess::State {
  std::string program;
  Pipe to_child, from_child, child_stderr;
  ProcessGroup group;  // declared after the pipes, so destroyed (killed) before they close
  SandboxReport report;
  double wall_timeout_s = 0;
  std::size_t tail_bytes = 0, max_line_bytes = 0;
  std::string pending;      // stdout read but not yet returned
  std::string stderr_tail;  // the last tail_bytes of stderr
  int exit_code = -1;       // once reaped

  ChildReply exchange(std::string_view line, Clock::time_point deadline, double timeout_s);
  ChildReply died(Clock::time_point deadline);
  ChildError end(ChildFailure failure);
  ChildReply fail(ChildError error, const std::string& what) const;
  void read_stderr();
};

// Reads what stderr holds now, keeping its tail; closes it at end of file.
void ChildProcess::State::read_stderr() {
  char buffer[65536];
  while (child_stderr.read_end.get() >= 0) {
    const ssize_t n = ::read(child_stderr.read_end.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n <= 0) {  // end of file, or an error that will not go away
      child_stderr.read_end.reset();
      return;
    }
    stderr_tail.append(buffer, static_cast<std::size_t>(n));
    if (stderr_tail.size() > tail_bytes) stderr_tail.erase(0, stderr_tail.size() - tail_bytes);
  }
}

// Kills the group (the leader, even if exited, is still unreaped and holds the
// group id), reaps the leader, and collects the rest of its stderr.
ChildError ChildProcess::State::end(ChildFailure failure) {
  group.kill_group();
  const auto code = group.wait();
  exit_code = code.ok() ? *code : -1;
  read_stderr();  // every writer is gone now, so this reaches end of file
  to_child.write_end.reset();
  from_child.read_end.reset();
  child_stderr.read_end.reset();
  return {failure, {}, exit_code, stderr_tail};
}

ChildReply ChildProcess::State::fail(ChildError error, const std::string& what) const {
  error.message = "'" + program + "' " + what;
  if (!error.stderr_tail.empty()) error.message += "; its stderr ends with: " + error.stderr_tail;
  return {{}, std::move(error)};
}

// The child closed its stdout, or exited: give it until the deadline (at most 1 s)
// to finish exiting, so that its own exit status is what gets reported.
ChildReply ChildProcess::State::died(Clock::time_point deadline) {
  const auto until = std::min(deadline, Clock::now() + std::chrono::seconds(1));
  bool exited = group.exited();
  for (; !exited && Clock::now() < until; exited = group.exited())
    std::this_thread::sleep_for(milliseconds(2));
  ChildError error = end(ChildFailure::exited);
  if (!exited) return fail(std::move(error), "closed its stdout and was killed");
  const std::string how = describe_exit(error.exit_code) + " before answering";
  return fail(std::move(error), how);
}

ChildReply ChildProcess::State::exchange(std::string_view line, Clock::time_point deadline,
                                         double timeout_s) {
  std::string out(line);
  out += '\n';
  std::size_t written = 0;
  for (;;) {
    const auto newline = pending.find('\n');
    if (written == out.size() && newline != std::string::npos) {
      ChildReply reply{pending.substr(0, newline), std::nullopt};
      pending.erase(0, newline + 1);
      return reply;
    }
    if (pending.size() > max_line_bytes)
      return fail(end(ChildFailure::oversized),
                  "wrote more than " + std::to_string(max_line_bytes) + " bytes without a newline");
    const auto left = std::chrono::ceil<milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%.2f", timeout_s);
      return fail(end(ChildFailure::timeout), std::string("gave no answer within ") + seconds +
                                                  " s; its process group was killed");
    }
    pollfd fds[3] = {{written < out.size() ? to_child.write_end.get() : -1, POLLOUT, 0},
                     {from_child.read_end.get(), POLLIN, 0},
                     {child_stderr.read_end.get(), POLLIN, 0}};
    // Wake at least every 100 ms: a grandchild may hold the pipes after the child exits.
    const int ready = ::poll(fds, 3, static_cast<int>(std::min<long long>(left, 100)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) {
      const std::string why = std::string("was killed as poll failed: ") + std::strerror(errno);
      return fail(end(ChildFailure::exited), why);
    }
    if (ready == 0) {
      if (group.exited()) return died(deadline);
      continue;
    }
    if (fds[2].revents != 0) read_stderr();
    if (fds[0].revents != 0) {
      const ssize_t n =
          write_without_sigpipe(fds[0].fd, out.data() + written, out.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      // EPIPE: it closed stdin. Stop writing; a line it wrote may still be in
      // stdout, and end of file there reports the exit.
      if (n < 0 && errno != EAGAIN && errno != EINTR) written = out.size();
    }
    if (fds[1].revents != 0) {
      char buffer[65536];
      const ssize_t n = ::read(fds[1].fd, buffer, sizeof buffer);
      if (n > 0) pending.append(buffer, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return died(deadline);
    }
  }
}

Result<ChildProcess> ChildProcess::start(const ChildSpec& spec) {
  if (spec.argv.empty()) return Error::internal("ChildProcess::start: empty argv");
  const std::string& program = spec.argv[0];
  auto state = std::make_unique<State>();
  Pipe status;
  for (const Pipe* p : {&state->to_child, &state->from_child, &state->child_stderr, &status})
    if (p->error != 0) return spawn_error(program, "pipe", p->error);

  const std::string path = resolve_program(program);
  const std::vector<std::string> env = sandbox_environment(spec.sandbox);
  const std::vector<char*> argv = c_strings(spec.argv), envp = c_strings(env);
  const std::string dir = spec.working_dir.string();
  const ChildSandbox sandbox(spec.sandbox);
  const SandboxedLaunch launch{path.c_str(),
                               argv.data(),
                               envp.data(),
                               dir.empty() ? nullptr : dir.c_str(),
                               {state->to_child.read_end.get(), state->from_child.write_end.get(),
                                state->child_stderr.write_end.get()},
                               status.write_end.get(),
                               &sandbox};
  KB_TRY(sandbox.check_ready(program));
  const pid_t pid = fork_sandboxed(launch);
  if (pid < 0) return spawn_error(program, "fork", errno);
  state->group = ProcessGroup(pid);
  // Set here too, so kill_group reaches the child before it has run. EACCES
  // means it has exec'd already, having set the group itself.
  static_cast<void>(::setpgid(pid, pid));
  state->to_child.read_end.reset();
  state->from_child.write_end.reset();
  state->child_stderr.write_end.reset();
  status.write_end.reset();  // the child holds the only write end: end of file = exec or exit
  auto report = sandbox.read_report(status.read_end.get(), program);
  if (!report) return report.error();
  for (int fd : {state->to_child.write_end.get(), state->from_child.read_end.get(),
                 state->child_stderr.read_end.get()})
    if (!set_nonblocking(fd)) return spawn_error(program, "fcntl(O_NONBLOCK)", errno);

  state->program = program;
  state->report = std::move(*report);
  state->wall_timeout_s = spec.sandbox.wall_timeout_s;
  state->tail_bytes = spec.stderr_tail_bytes;
  state->max_line_bytes = spec.max_line_bytes;
  return ChildProcess(std::move(state));
}

ChildProcess::ChildProcess(std::unique_ptr<State> state) : state_(std::move(state)) {}
ChildProcess::~ChildProcess() = default;
ChildProcess::ChildProcess(ChildProcess&&) noexcept = default;
ChildProcess& ChildProcess::operator=(ChildProcess&&) noexcept = default;

Result<int> ChildProcess::finish(double timeout_s) {
  if (!state_ || !running()) return state_ ? state_->exit_code : -1;
  state_->to_child.write_end.reset();  // end of file: the harness leaves its loop and exits
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_s));
  while (!state_->group.exited() && Clock::now() < deadline) {
    state_->read_stderr();  // keeps a chatty child from blocking on a full pipe
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!state_->group.exited())
    return Error::io(state_->program + " did not exit within " + std::to_string(timeout_s) +
                     " s of its input closing; killed");
  state_->end(ChildFailure::exited);
  return state_->exit_code;
}

ChildReply ChildProcess::request(std::string_view line, double timeout_s) {
  if (!state_) return {{}, ChildError{ChildFailure::exited, "no child: moved from", -1, {}}};
  if (!running())
    return state_->fail({ChildFailure::exited, {}, state_->exit_code, state_->stderr_tail},
                        describe_exit(state_->exit_code) + " earlier and is not running");
  constexpr double kWeek = 7 * 24 * 3600.0;  // keeps the deadline arithmetic finite
  const double limit = std::max(0.0, std::min({timeout_s, state_->wall_timeout_s, kWeek}));
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(limit));
  return state_->exchange(line, deadline, limit);
}

bool ChildProcess::running() const { return state_ && state_->group.owned(); }
pid_t ChildProcess::pid() const { return state_ ? state_->group.pid() : -1; }

const SandboxReport& ChildProcess::sandbox() const {
  static const SandboxReport none = [] {
    SandboxReport r;
    r.why_not = r.filesystem_why_not = "no child";
    return r;
  }();
  return state_ ? state_->report : none;
}

}  // namespace kblaster
