#include "gpu/sandboxed_spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace kblaster {
namespace {

[[noreturn]] void fail_in_child(int status_fd, SetupStep step) noexcept {
  write_setup_record(status_fd, {step, errno, 0});
  ::_exit(127);
}

// Default dispositions and an empty mask, as a fresh program expects.
bool reset_signals() noexcept {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  // EINVAL for SIGKILL, SIGSTOP and libc's reserved signals, which need no reset.
  for (int s = 1; s < NSIG; ++s) static_cast<void>(::sigaction(s, &default_action, nullptr));
  sigset_t none;
  return ::sigemptyset(&none) == 0 && ::sigprocmask(SIG_SETMASK, &none, nullptr) == 0;
}

// Runs in the forked child: system calls only (async-signal-safe), then exec.
[[noreturn]] void run_child(const SandboxedLaunch& l) noexcept {
  if (::setpgid(0, 0) != 0) fail_in_child(l.status_fd, SetupStep::process_group);
  if (!reset_signals()) fail_in_child(l.status_fd, SetupStep::signals);
  if (!l.sandbox->apply_in_child(l.status_fd)) ::_exit(127);
  if (l.working_dir && ::chdir(l.working_dir) != 0)
    fail_in_child(l.status_fd, SetupStep::working_dir);
  // Lift the ends above 2 first, so that no dup2 below overwrites another of them.
  int high[3];
  for (int i = 0; i < 3; ++i)
    if ((high[i] = ::fcntl(l.stdio[i], F_DUPFD_CLOEXEC, 3)) < 0)
      fail_in_child(l.status_fd, SetupStep::stdio);
  for (int i = 0; i < 3; ++i)
    if (::dup2(high[i], i) < 0) fail_in_child(l.status_fd, SetupStep::stdio);
  // Whatever else was inherited closes at exec. Kernels before 5.11 refuse
  // (EINVAL/ENOSYS); then our own descriptors still close through O_CLOEXEC.
  static_cast<void>(::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC));
  ::execve(l.path, l.argv, l.envp);
  fail_in_child(l.status_fd, SetupStep::exec);
}

}  // namespace

pid_t fork_sandboxed(const SandboxedLaunch& launch) {
  const pid_t pid = ::fork();
  if (pid == 0) run_child(launch);
  return pid;
}

std::string resolve_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return std::filesystem::absolute(program).string();
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/bin:/bin";
  while (!dirs.empty()) {
    const auto colon = std::min(dirs.find(':'), dirs.size());
    std::string candidate(dirs.substr(0, colon));
    candidate = (candidate.empty() ? "." : candidate) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    dirs.remove_prefix(std::min(colon + 1, dirs.size()));
  }
  return program;
}

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace kblaster
