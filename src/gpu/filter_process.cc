#include "gpu/filter_process.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "gpu/piped_child.h"

namespace kblaster {
namespace {

using Clock = std::chrono::steady_clock;

// Moves `input` into the child and its output out, until its stdout and stderr close or it
// must be killed (timeout, overflow). Ends with every pipe closed.
Status pump(PipedChild& child, std::string_view input, Clock::time_point deadline,
            const FilterOptions& options, FilterResult& out) {
  std::size_t written = 0;
  if (input.empty()) child.to_child.write_end.reset();
  while (child.from_child.read_end.get() >= 0 || child.child_stderr.read_end.get() >= 0) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      out.timed_out = true;
      child.group.kill_group();
      return Ok{};
    }
    pollfd fds[3] = {{child.to_child.write_end.get(), POLLOUT, 0},
                     {child.from_child.read_end.get(), POLLIN, 0},
                     {child.child_stderr.read_end.get(), POLLIN, 0}};
    // Wake at least every 100 ms: a grandchild may hold the pipes after the child exits.
    const int ready = ::poll(fds, 3, static_cast<int>(std::min<long long>(left.count(), 100)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return Error::environment(std::string("poll failed: ") + std::strerror(errno));
    if (ready == 0 && child.group.exited()) return Ok{};
    if (fds[0].revents != 0) {
      const ssize_t n =
          write_without_sigpipe(fds[0].fd, input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if (n < 0 && errno != EAGAIN && errno != EINTR) out.input_refused = true;
      if (written == input.size() || out.input_refused) child.to_child.write_end.reset();
    }
    if (fds[2].revents != 0)
      read_tail(child.child_stderr.read_end, out.stderr_tail, options.stderr_tail_bytes);
    if (fds[1].revents != 0) {
      char buffer[65536];
      const ssize_t n = ::read(fds[1].fd, buffer, sizeof buffer);
      if (n > 0) out.output.append(buffer, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) child.from_child.read_end.reset();
      if (out.output.size() > options.max_output_bytes) {
        out.output.resize(options.max_output_bytes);
        out.output_overflow = true;
        child.group.kill_group();
        return Ok{};
      }
    }
  }
  return Ok{};
}

}  // namespace

Result<FilterResult> run_filter(const std::vector<std::string>& argv, std::string_view input,
                                const FilterOptions& options) {
  constexpr double kWeek = 7 * 24 * 3600.0;  // keeps the deadline arithmetic finite
  const double limit =
      std::max(0.0, std::min({options.timeout_s, options.sandbox.wall_timeout_s, kWeek}));
  const auto start = Clock::now();
  const auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit));
  auto child = start_piped(argv, options.working_dir, options.sandbox, options.extra_env);
  if (!child) return child.error();
  FilterResult result;
  const Status pumped = pump(*child, input, deadline, options, result);
  // Its output closed: let it exit by itself before the deadline, so its own status counts.
  while (pumped.ok() && !child->group.exited() && Clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  if (!child->group.exited()) result.timed_out = !result.output_overflow;
  child->group.kill_group();  // what it left running goes with it
  const auto code = child->group.wait();
  if (!pumped) return pumped.error();
  if (!code) return code.error();
  read_tail(child->child_stderr.read_end, result.stderr_tail, options.stderr_tail_bytes);
  result.exit_code = *code;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace kblaster
