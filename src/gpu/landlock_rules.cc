#include "gpu/landlock_rules.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace kblaster {
namespace {

// Rights added after ABI 1, spelled out since older kernel headers lack them.
constexpr std::uint64_t kRefer = 1ULL << 13;     // ABI 2: link or rename across directories
constexpr std::uint64_t kTruncate = 1ULL << 14;  // ABI 3

constexpr std::uint64_t kReadRights =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr std::uint64_t kFileRights =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE;

// Every filesystem right the kernel's ABI knows (ioctl rights left out: they
// guard device files, not what is read or written).
std::uint64_t handled_rights(int abi) {
  std::uint64_t rights = (1ULL << 13) - 1;  // ABI 1: execute .. make_sym
  if (abi >= 2) rights |= kRefer;
  if (abi >= 3) rights |= kTruncate;
  return rights;
}

std::string call_failed(const char* call, int err) {
  return std::string(call) + ": " + std::strerror(err);
}

// Adds one path-beneath rule; "" or why it failed. A missing path is skipped.
std::string add_rule(int ruleset, const std::filesystem::path& path, std::uint64_t rights,
                     std::uint64_t handled) {
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? "" : call_failed(("open " + path.string()).c_str(), errno);
  struct stat st {};
  if (::fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) rights &= kFileRights | kTruncate;
  landlock_path_beneath_attr rule{};
  rule.allowed_access = rights & handled;
  rule.parent_fd = fd;
  const long rc = ::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  const int err = errno;
  ::close(fd);
  return rc == 0 ? "" : call_failed(("landlock_add_rule " + path.string()).c_str(), err);
}

struct Built {
  int fd = -1;
  std::string why_not;
};

Built build(const FilesystemAccess& access) {
  const int abi = landlock_abi();
  if (abi <= 0)
    return {-1, call_failed("landlock_create_ruleset (this kernel has no Landlock)", errno)};
  landlock_ruleset_attr attr{};
  attr.handled_access_fs = handled_rights(abi);
  const long fd = ::syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
  if (fd < 0) return {-1, call_failed("landlock_create_ruleset", errno)};
  ::fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);
  const std::uint64_t handled = attr.handled_access_fs;
  for (const auto& [paths, rights] :
       {std::pair{&access.read, kReadRights}, std::pair{&access.write, handled}})
    for (const auto& path : *paths)
      if (std::string why = add_rule(static_cast<int>(fd), path, rights, handled); !why.empty()) {
        ::close(static_cast<int>(fd));
        return Built{-1, std::move(why)};
      }
  return {static_cast<int>(fd), {}};
}

}  // namespace

int landlock_abi() {
  const long abi =
      ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

LandlockRules::LandlockRules(const FilesystemAccess* access) {
  if (!access) {
    why_not_ = "file access is not confined by policy";
    return;
  }
  Built built = build(*access);
  ruleset_.adopt(built.fd);
  why_not_ = std::move(built.why_not);
}

int LandlockRules::restrict_in_child() const noexcept {
  if (::syscall(SYS_landlock_restrict_self, ruleset_.get(), 0) != 0) return errno;
  return 0;
}

}  // namespace kblaster
