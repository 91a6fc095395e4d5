#include "confined_run.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "test_paths.h"

namespace kblaster::testing {
namespace {

// Exit codes the child uses when the confinement, not kblaster, failed.
constexpr int kNoNamespace = 200;
constexpr int kNoMount = 201;

bool write_all(const char* path, const std::string& text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

// A mount namespace whose mounts do not reach the parent's; a user namespace too
// when the process may not make one alone (not root, or root without CAP_SYS_ADMIN).
bool enter_namespace(uid_t uid, gid_t gid) {
  if (uid == 0 && ::unshare(CLONE_NEWNS) == 0) return true;
  if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return false;
  return write_all("/proc/self/setgroups", "deny") &&
         write_all("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") &&
         write_all("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1");
}

// Fills the file system of `dir` until a write fails for want of space.
bool fill(const std::filesystem::path& dir) {
  const int fd = ::open((dir / "filler").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  const std::string block(4096, 'f');
  while (::write(fd, block.data(), block.size()) > 0) {
  }
  const bool full = errno == ENOSPC;
  ::close(fd);
  return full;
}

bool confine(const std::filesystem::path& dir, Confinement how) {
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return false;
  if (how == Confinement::full_disk)
    return ::mount("kblaster-full", dir.c_str(), "tmpfs", 0, "size=64k,mode=0755") == 0 &&
           fill(dir);
  return ::mount(dir.c_str(), dir.c_str(), nullptr, MS_BIND | MS_REC, nullptr) == 0 &&
         ::mount(nullptr, dir.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) == 0;
}

}  // namespace

std::optional<CliResult> run_kblaster_confined(const std::vector<std::string>& args,
                                               const std::filesystem::path& dir, Confinement how,
                                               std::string& why_not) {
  TempDir scratch;
  const std::string out_path = (scratch.path() / "stdout").string();
  const std::string err_path = (scratch.path() / "stderr").string();
  const std::string binary = kblaster_binary().string();
  const std::string root = source_dir().string();
  std::vector<std::string> argv_text = {binary};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  const uid_t uid = ::getuid();
  const gid_t gid = ::getgid();

  const pid_t pid = ::fork();
  if (pid < 0) {
    why_not = std::string("fork: ") + std::strerror(errno);
    return std::nullopt;
  }
  if (pid == 0) {
    if (!enter_namespace(uid, gid)) ::_exit(kNoNamespace);
    if (!confine(dir, how)) ::_exit(kNoMount);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out < 0 || err < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0 || ::chdir(root.c_str()))
      ::_exit(kNoMount);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (code == kNoNamespace || code == kNoMount) {
    why_not = code == kNoNamespace ? "this machine allows no mount namespace for this user"
                                   : "cannot mount in a mount namespace here";
    return std::nullopt;
  }
  return CliResult{code, read_text(out_path), read_text(err_path)};
}

}  // namespace kblaster::testing
