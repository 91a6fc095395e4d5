#include "gpu/piped_child.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gpu/sandboxed_spawn.h"

namespace kblaster {
namespace {

Error spawn_error(const std::string& program, const std::string& what, int err) {
  return Error::environment("cannot run '" + program + "': " + what + ": " + std::strerror(err));
}

bool set_nonblocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  return flags >= 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

}  // namespace

Pipe::Pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    error = errno;
    return;
  }
  read_end.adopt(fds[0]);
  write_end.adopt(fds[1]);
}

Result<PipedChild> start_piped(const std::vector<std::string>& argv,
                               const std::filesystem::path& working_dir,
                               const SandboxPolicy& policy,
                               const std::vector<std::string>& extra_env) {
  if (argv.empty()) return Error::internal("start_piped: empty argv");
  const std::string& program = argv[0];
  PipedChild child;
  child.program = program;
  Pipe status;
  for (const Pipe* p : {&child.to_child, &child.from_child, &child.child_stderr, &status})
    if (p->error != 0) return spawn_error(program, "pipe", p->error);

  const std::string path = resolve_program(program);
  std::vector<std::string> env = sandbox_environment(policy);
  env.insert(env.end(), extra_env.begin(), extra_env.end());
  const std::vector<char*> args = c_strings(argv), envp = c_strings(env);
  const std::string dir = working_dir.string();
  const ChildSandbox sandbox(policy);
  const SandboxedLaunch launch{
      .path = path.c_str(),
      .argv = args.data(),
      .envp = envp.data(),
      .working_dir = dir.empty() ? nullptr : dir.c_str(),
      .stdio = {child.to_child.read_end.get(), child.from_child.write_end.get(),
                child.child_stderr.write_end.get()},
      .status_fd = status.write_end.get(),
      .sandbox = &sandbox};
  KB_TRY(sandbox.check_ready(program));
  const pid_t pid = fork_sandboxed(launch);
  if (pid < 0) return spawn_error(program, "fork", errno);
  child.group = ProcessGroup(pid);
  // Set here too, so kill_group reaches the child before it has run. EACCES
  // means it has exec'd already, having set the group itself.
  static_cast<void>(::setpgid(pid, pid));
  child.to_child.read_end.reset();
  child.from_child.write_end.reset();
  child.child_stderr.write_end.reset();
  status.write_end.reset();  // the child holds the only write end: end of file = exec or exit
  auto report = sandbox.read_report(status.read_end.get(), program);
  if (!report) return report.error();
  for (int fd : {child.to_child.write_end.get(), child.from_child.read_end.get(),
                 child.child_stderr.read_end.get()})
    if (!set_nonblocking(fd)) return spawn_error(program, "fcntl(O_NONBLOCK)", errno);
  child.report = std::move(*report);
  return child;
}

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

void read_tail(FileDescriptor& fd, std::string& tail, std::size_t tail_bytes) {
  char buffer[65536];
  while (fd.get() >= 0) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n <= 0) {  // end of file, or an error that will not go away
      fd.reset();
      return;
    }
    tail.append(buffer, static_cast<std::size_t>(n));
    if (tail.size() > tail_bytes) tail.erase(0, tail.size() - tail_bytes);
  }
}

std::string describe_exit(int code) {
  if (code < 0) return "ended (its exit status is unknown)";
  if (code < 128) return "exited with status " + std::to_string(code);
  return "was killed by signal " + std::to_string(code - 128) + " (" + ::strsignal(code - 128) +
         ")";
}

}  // namespace kblaster
