#include "gpu/sandbox.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace kblaster {
namespace {

// fnmatch patterns, matched case-insensitively against the whole name.
constexpr const char* kSecretPatterns[] = {
    "GITHUB_TOKEN", "GH_TOKEN",   "ACTIONS_*TOKEN*", "ACTIONS_RUNTIME_*", "*_KEY",      "*_TOKEN",
    "*_SECRET*",    "*PASSWORD*", "AWS_*",           "OPENAI_*",          "ANTHROPIC_*"};

constexpr int kLimitResources[] = {RLIMIT_CORE, RLIMIT_NOFILE, RLIMIT_FSIZE};

// Writes all of `text` to the file at `path`; async-signal-safe.
bool write_file(const char* path, const std::string& text) noexcept {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  return ::close(fd) == 0 && ok;
}

// Sets IFF_UP on this namespace's `lo`: 0, or the errno of the call that
// failed. A new network namespace starts with its loopback down. Only system
// calls, so safe between fork and exec on Linux (POSIX does not list ioctl as
// async-signal-safe, but it takes no lock and allocates nothing in user space).
int bring_loopback_up() noexcept {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno;
  ifreq request{};
  std::memcpy(request.ifr_name, "lo", 3);
  int error = 0;
  if (::ioctl(fd, SIOCGIFFLAGS, &request) != 0) {
    error = errno;
  } else {
    request.ifr_flags = static_cast<short>(request.ifr_flags | IFF_UP);
    if (::ioctl(fd, SIOCSIFFLAGS, &request) != 0) error = errno;
  }
  ::close(fd);
  return error;
}

// A process that is not dumpable has its /proc/PID files (environ, mem, maps…)
// owned by root, so a child running as the same user cannot read kblaster's
// environment, and with it the token, from there.
void keep_parent_unreadable() { static_cast<void>(::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)); }

// Drops every capability from the bounding set, so that a child started as
// root gets none at exec (CAP_SYS_PTRACE would read kblaster's /proc files,
// CAP_DAC_OVERRIDE any file). Without CAP_SETPCAP (any other user, who has no
// capabilities to drop) the calls fail harmlessly. Async-signal-safe.
void drop_capabilities() noexcept {
  for (int cap = 0; cap <= 63; ++cap) static_cast<void>(::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0));
}

std::string step_name(SetupStep step) {
  switch (step) {
    case SetupStep::network:
      return "network isolation";
    case SetupStep::process_group:
      return "setpgid";
    case SetupStep::signals:
      return "signal reset";
    case SetupStep::rlimits:
      return "setrlimit";
    case SetupStep::no_new_privileges:
      return "prctl(PR_SET_NO_NEW_PRIVS)";
    case SetupStep::filesystem:
      return "landlock_restrict_self";
    case SetupStep::working_dir:
      return "chdir";
    case SetupStep::stdio:
      return "redirecting stdin/stdout/stderr";
    case SetupStep::exec:
      return "exec";
  }
  return "an unknown step";
}

}  // namespace

bool looks_like_secret(std::string_view name) {
  const std::string n(name);
  return std::any_of(std::begin(kSecretPatterns), std::end(kSecretPatterns),
                     [&](const char* p) { return ::fnmatch(p, n.c_str(), FNM_CASEFOLD) == 0; });
}

std::vector<std::string> sandbox_environment(const SandboxPolicy& policy,
                                             const char* const* parent) {
  std::vector<std::string> env;
  for (; parent && *parent; ++parent) {
    const std::string_view entry(*parent);
    const std::string_view name = entry.substr(0, entry.find('='));
    if (name.size() == entry.size() || looks_like_secret(name)) continue;
    if (std::find(policy.env_allow.begin(), policy.env_allow.end(), name) != policy.env_allow.end())
      env.emplace_back(entry);
  }
  for (const auto& entry : policy.env_set) {
    const std::string name = entry.substr(0, entry.find('='));
    if (name.size() == entry.size() || looks_like_secret(name)) continue;
    std::erase_if(env, [&](const std::string& e) { return e.starts_with(name + "="); });
    env.push_back(entry);
  }
  return env;
}

std::vector<std::string> sandbox_environment(const SandboxPolicy& policy) {
  return sandbox_environment(policy, environ);
}

std::string network_summary(const SandboxReport& report) {
  if (!report.network_isolated) return "the host's network (" + report.why_not + ")";
  if (!report.loopback_up)
    return "no network, not even loopback (a namespace of its own; " + report.loopback_why_not +
           ")";
  return "no network (a namespace of its own, loopback only)";
}

std::string filesystem_summary(const SandboxReport& report) {
  if (report.filesystem_confined) return "only its own directories (Landlock)";
  return "all the user's files (" + report.filesystem_why_not + ")";
}

void write_setup_record(int status_fd, SetupRecord record) noexcept {
  // Smaller than PIPE_BUF, so the write is atomic: all of it or nothing.
  while (::write(status_fd, &record, sizeof record) < 0 && errno == EINTR) {
  }
}

ChildSandbox::ChildSandbox(const SandboxPolicy& policy)
    : network_(policy.network),
      filesystem_(policy.filesystem),
      rules_(policy.filesystem == FilesystemIsolation::off ? nullptr : &policy.files),
      no_new_privileges_(policy.no_new_privileges),
      niceness_(policy.niceness),
      capabilities_(policy.capabilities),
      limits_{policy.max_core_file_bytes, policy.max_open_files, policy.max_file_bytes},
      uid_map_(std::to_string(::getuid()) + " " + std::to_string(::getuid()) + " 1\n"),
      gid_map_(std::to_string(::getgid()) + " " + std::to_string(::getgid()) + " 1\n") {
  keep_parent_unreadable();
}

bool ChildSandbox::apply_in_child(int status_fd) const noexcept {
  if (network_ != NetworkIsolation::off) {
    SetupRecord r{SetupStep::network, 0, 0};
    if (::unshare(CLONE_NEWNET) != 0) {
      r.error = errno;
      if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
        r.fallback_error = errno;
      } else {
        // Keep our uid and gid visible inside the new user namespace. If this
        // fails the child runs as the overflow uid, with the network still cut.
        static_cast<void>(write_file("/proc/self/setgroups", "deny") &&
                          write_file("/proc/self/uid_map", uid_map_) &&
                          write_file("/proc/self/gid_map", gid_map_));
      }
    }
    if (r.error == 0 || r.fallback_error == 0) r.loopback_error = bring_loopback_up();
    write_setup_record(status_fd, r);
    if (r.fallback_error != 0 && network_ == NetworkIsolation::required) return false;
  }
  auto fail = [status_fd](SetupStep step) {
    write_setup_record(status_fd, {step, errno, 0});
    return false;
  };
  for (std::size_t i = 0; i < std::size(kLimitResources); ++i) {
    rlimit current{};
    if (::getrlimit(kLimitResources[i], &current) != 0) return fail(SetupStep::rlimits);
    const rlim_t value = std::min<rlim_t>(limits_[i], current.rlim_max);
    const rlimit wanted{value, value};
    if (::setrlimit(kLimitResources[i], &wanted) != 0) return fail(SetupStep::rlimits);
  }
  if (niceness_ > 0) {
    // getpriority may return -1 as a value, so errno tells a failure; either way it is best
    // effort: a child that keeps the parent's priority runs as before.
    errno = 0;
    const int now = ::getpriority(PRIO_PROCESS, 0);
    if (errno == 0) static_cast<void>(::setpriority(PRIO_PROCESS, 0, std::min(19, now + niceness_)));
  }
  if (capabilities_ == Capabilities::drop) drop_capabilities();
  // Landlock needs no_new_privs, so a confined child always gets it.
  const bool confine = filesystem_ != FilesystemIsolation::off && rules_.ready();
  if ((no_new_privileges_ || confine) && ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return fail(SetupStep::no_new_privileges);
  if (confine) {
    const int error = rules_.restrict_in_child();
    write_setup_record(status_fd, {SetupStep::filesystem, error, 0});
    if (error != 0 && filesystem_ == FilesystemIsolation::required) return false;
  }
  return true;
}

Status ChildSandbox::check_ready(const std::string& program) const {
  if (filesystem_ != FilesystemIsolation::required || rules_.ready()) return Ok{};
  return Error::environment("cannot run '" + program +
                            "': the sandbox requires Landlock to confine its file access, "
                            "which is unavailable: " +
                            rules_.why_not());
}

Result<SandboxReport> ChildSandbox::read_report(int status_fd, const std::string& program) const {
  std::string bytes;
  char buffer[256];
  for (;;) {
    const ssize_t n = ::read(status_fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return Error::environment("cannot run '" + program +
                                "': reading its sandbox status: " + std::strerror(errno));
    if (n == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
  SandboxReport report;
  if (network_ == NetworkIsolation::off) report.why_not = "network isolation is off by policy";
  report.filesystem_why_not = rules_.why_not();
  for (std::size_t at = 0; at + sizeof(SetupRecord) <= bytes.size(); at += sizeof(SetupRecord)) {
    SetupRecord r;
    std::memcpy(&r, bytes.data() + at, sizeof r);
    if (r.step == SetupStep::filesystem) {
      report.filesystem_confined = r.error == 0;
      if (r.error == 0) continue;
      report.filesystem_why_not = std::string("landlock_restrict_self: ") + std::strerror(r.error);
      if (filesystem_ == FilesystemIsolation::required)
        return Error::environment("cannot run '" + program +
                                  "': the sandbox requires Landlock, "
                                  "which failed: " +
                                  report.filesystem_why_not);
      continue;
    }
    if (r.step != SetupStep::network)
      return Error::environment("cannot run '" + program + "': " + step_name(r.step) +
                                " failed: " + std::strerror(r.error));
    report.network_isolated = r.error == 0 || r.fallback_error == 0;
    if (report.network_isolated) {
      report.loopback_up = r.loopback_error == 0;
      if (!report.loopback_up)
        report.loopback_why_not = std::string("bringing up lo: ") + std::strerror(r.loopback_error);
      continue;
    }
    report.why_not = std::string("unshare(CLONE_NEWNET): ") + std::strerror(r.error) +
                     "; unshare(CLONE_NEWUSER | CLONE_NEWNET): " + std::strerror(r.fallback_error);
    if (network_ == NetworkIsolation::required)
      return Error::environment(
          "cannot run '" + program +
          "': the sandbox requires network isolation, which is unavailable: " + report.why_not);
  }
  return report;
}

}  // namespace kblaster
