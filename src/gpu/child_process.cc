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

#include "gpu/piped_child.h"

namespace kblaster {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

}  // namespace

struct ChildProcess::State {
  PipedChild child;  // the pipes, the group (killed before the pipes close), the sandbox report
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
  read_tail(child.child_stderr.read_end, stderr_tail, tail_bytes);
}

// Kills the group (the leader, even if exited, is still unreaped and holds the
// group id), reaps the leader, and collects the rest of its stderr.
ChildError ChildProcess::State::end(ChildFailure failure) {
  child.group.kill_group();
  const auto code = child.group.wait();
  exit_code = code.ok() ? *code : -1;
  read_stderr();  // every writer is gone now, so this reaches end of file
  child.to_child.write_end.reset();
  child.from_child.read_end.reset();
  child.child_stderr.read_end.reset();
  return {failure, {}, exit_code, stderr_tail};
}

ChildReply ChildProcess::State::fail(ChildError error, const std::string& what) const {
  error.message = "'" + child.program + "' " + what;
  if (!error.stderr_tail.empty()) error.message += "; its stderr ends with: " + error.stderr_tail;
  return {{}, std::move(error)};
}

// The child closed its stdout, or exited: give it until the deadline (at most 1 s)
// to finish exiting, so that its own exit status is what gets reported.
ChildReply ChildProcess::State::died(Clock::time_point deadline) {
  const auto until = std::min(deadline, Clock::now() + std::chrono::seconds(1));
  bool exited = child.group.exited();
  for (; !exited && Clock::now() < until; exited = child.group.exited())
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
    pollfd fds[3] = {{written < out.size() ? child.to_child.write_end.get() : -1, POLLOUT, 0},
                     {child.from_child.read_end.get(), POLLIN, 0},
                     {child.child_stderr.read_end.get(), POLLIN, 0}};
    // Wake at least every 100 ms: a grandchild may hold the pipes after the child exits.
    const int ready = ::poll(fds, 3, static_cast<int>(std::min<long long>(left, 100)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) {
      const std::string why = std::string("was killed as poll failed: ") + std::strerror(errno);
      return fail(end(ChildFailure::exited), why);
    }
    if (ready == 0) {
      if (child.group.exited()) return died(deadline);
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
  auto child = start_piped(spec.argv, spec.working_dir, spec.sandbox);
  if (!child) return child.error();
  auto state = std::make_unique<State>();
  state->child = std::move(*child);
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
  state_->child.to_child.write_end.reset();  // end of file: the harness leaves its loop and exits
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_s));
  while (!state_->child.group.exited() && Clock::now() < deadline) {
    state_->read_stderr();  // keeps a chatty child from blocking on a full pipe
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!state_->child.group.exited())
    return Error::io(state_->child.program + " did not exit within " + std::to_string(timeout_s) +
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

bool ChildProcess::running() const { return state_ && state_->child.group.owned(); }
pid_t ChildProcess::pid() const { return state_ ? state_->child.group.pid() : -1; }

const SandboxReport& ChildProcess::sandbox() const {
  static const SandboxReport none = [] {
    SandboxReport r;
    r.why_not = r.filesystem_why_not = "no child";
    return r;
  }();
  return state_ ? state_->child.report : none;
}

}  // namespace kblaster
