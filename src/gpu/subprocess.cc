#include "gpu/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "gpu/file_descriptor.h"
#include "gpu/sandboxed_spawn.h"

extern char** environ;

namespace kblaster {
namespace {

using Clock = std::chrono::steady_clock;

Error spawn_error(const std::string& program, const std::string& what, int err) {
  return Error::environment("cannot run '" + program + "': " + what + ": " + std::strerror(err));
}

// Owns posix_spawn's two attribute objects. Copy deleted: they hold malloc'd state.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  int init_error = 0;
  SpawnSetup() {
    if ((init_error = posix_spawn_file_actions_init(&actions)) != 0) return;
    if ((init_error = posix_spawnattr_init(&attr)) != 0) posix_spawn_file_actions_destroy(&actions);
  }
  ~SpawnSetup() {
    if (init_error != 0) return;
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

// Fills in the spawn actions and attributes; returns the failing call's error.
int prepare(SpawnSetup& s, int pipe_write, const ProcessOptions& options) {
  if (s.init_error != 0) return s.init_error;
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  short flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (int e = posix_spawnattr_setflags(&s.attr, flags)) return e;
  if (int e = posix_spawnattr_setpgroup(&s.attr, 0)) return e;
  if (int e = posix_spawnattr_setsigmask(&s.attr, &none)) return e;
  if (int e = posix_spawnattr_setsigdefault(&s.attr, &all)) return e;
  if (int e = posix_spawn_file_actions_addopen(&s.actions, 0, "/dev/null", O_RDONLY, 0)) return e;
  if (int e = posix_spawn_file_actions_adddup2(&s.actions, pipe_write, 1)) return e;
  if (int e = posix_spawn_file_actions_adddup2(&s.actions, pipe_write, 2)) return e;
  if (!options.working_dir.empty())
    if (int e = posix_spawn_file_actions_addchdir_np(&s.actions, options.working_dir.c_str()))
      return e;
  return 0;
}

// Reads `fd` to end of file, keeping at most `keep` bytes. Past `deadline` it kills
// the group once and marks the result timed out; the pipe then closes as the group dies.
Status drain(int fd, ProcessGroup& child, std::optional<Clock::time_point> deadline,
             std::size_t keep, ProcessResult& out) {
  char buffer[65536];
  for (;;) {
    int wait_ms = -1;
    if (deadline && !out.timed_out) {
      auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now()).count();
      wait_ms = static_cast<int>(std::max<long long>(0, left));
    }
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return Error::environment(std::string("poll failed: ") + std::strerror(errno));
    if (ready == 0) {
      child.kill_group();
      out.timed_out = true;
      continue;
    }
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error::environment(std::string("read failed: ") + std::strerror(errno));
    if (n == 0) return Ok{};
    const auto got = static_cast<std::size_t>(n);
    const std::size_t kept = std::min(got, keep - std::min(keep, out.output.size()));
    out.output.append(buffer, kept);
    out.output_dropped += got - kept;
  }
}

// Forks `argv` into options.sandbox with stdin from /dev/null and stdout and
// stderr to `output`; the started child, with what its sandbox gave it.
Result<pid_t> spawn_in_sandbox(const std::vector<std::string>& argv, const ProcessOptions& options,
                               int output, SandboxReport& report) {
  const std::string& program = argv[0];
  const ChildSandbox sandbox(*options.sandbox);
  KB_TRY(sandbox.check_ready(program));
  int status_fds[2];
  if (::pipe2(status_fds, O_CLOEXEC) != 0) return spawn_error(program, "pipe", errno);
  FileDescriptor status_read(status_fds[0]), status_write(status_fds[1]);
  FileDescriptor null_input(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (null_input.get() < 0) return spawn_error(program, "open /dev/null", errno);

  const std::string path = resolve_program(program);
  const std::vector<std::string> env = sandbox_environment(*options.sandbox);
  const std::vector<char*> args = c_strings(argv), envp = c_strings(env);
  const std::string dir = options.working_dir.string();
  const SandboxedLaunch launch{.path = path.c_str(),
                               .argv = args.data(),
                               .envp = envp.data(),
                               .working_dir = dir.empty() ? nullptr : dir.c_str(),
                               .stdio = {null_input.get(), output, output},
                               .status_fd = status_write.get(),
                               .sandbox = &sandbox};
  const pid_t pid = fork_sandboxed(launch);
  if (pid < 0) return spawn_error(program, "fork", errno);
  ProcessGroup child(pid);
  static_cast<void>(::setpgid(pid, pid));  // as ChildProcess::start does
  status_write.reset();  // the child holds the only write end: end of file = exec or exit
  auto got = sandbox.read_report(status_read.get(), program);
  if (!got) return got.error();  // `child` is killed and reaped as it goes
  report = std::move(*got);
  return child.disown();
}

}  // namespace

void ProcessGroup::kill_group() {
  if (pid_ <= 0) return;
  // The only failure for our own child's group is ESRCH: every member is gone already.
  static_cast<void>(::kill(-pid_, SIGKILL));
}

bool ProcessGroup::exited() const {
  if (pid_ <= 0) return true;
  siginfo_t info{};
  // WNOWAIT leaves the leader a zombie. A failure (ECHILD) means there is no
  // child left to wait for, which is exited too.
  if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0)
    return true;
  return info.si_pid != 0;
}

Result<int> ProcessGroup::wait() {
  if (pid_ <= 0) return Error::internal("ProcessGroup::wait: no child to wait for");
  int status = 0;
  pid_t done = -1;
  while ((done = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  if (done < 0) return Error::environment(std::string("waitpid failed: ") + std::strerror(errno));
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

void ProcessGroup::release() {
  if (pid_ <= 0) return;
  kill_group();
  static_cast<void>(wait());  // nothing to report to from a destructor
}

Result<ProcessResult> run_process(const std::vector<std::string>& argv,
                                  const ProcessOptions& options) {
  if (argv.empty()) return Error::internal("run_process: empty argv");
  const std::string& program = argv[0];
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return spawn_error(program, "pipe", errno);
  FileDescriptor read_end(fds[0]), write_end(fds[1]);

  SpawnSetup setup;
  if (int e = prepare(setup, write_end.get(), options))
    return spawn_error(program, "spawn setup", e);

  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> env;
  if (options.environment) {
    for (const auto& e : *options.environment) env.push_back(const_cast<char*>(e.c_str()));
    env.push_back(nullptr);
  }
  // A relative path with a '/' means the caller's directory, not working_dir.
  const std::string path = program.find('/') != std::string::npos
                               ? std::filesystem::absolute(program).string()
                               : program;

  const auto start = Clock::now();
  ProcessResult result;
  pid_t pid = 0;
  if (options.sandbox) {
    SandboxReport report;
    auto started = spawn_in_sandbox(argv, options, write_end.get(), report);
    if (!started) return started.error();
    pid = *started;
    result.sandbox = std::move(report);
  } else if (const int e = ::posix_spawnp(&pid, path.c_str(), &setup.actions, &setup.attr,
                                          args.data(), options.environment ? env.data() : environ);
             e != 0) {
    return spawn_error(program, "spawn", e);
  }
  ProcessGroup child(pid);
  write_end.reset();  // the child holds the only write end now, so EOF means it is gone

  std::optional<Clock::time_point> deadline;
  if (options.timeout_seconds)
    deadline = start + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(*options.timeout_seconds));
  KB_TRY(drain(read_end.get(), child, deadline, options.max_output_bytes, result));
  auto exit_code = child.wait();
  if (!exit_code) return exit_code.error();
  result.exit_code = *exit_code;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace kblaster
