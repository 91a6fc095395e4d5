#include "core/bounded_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/input_limits.h"

namespace kblaster {
namespace {

// Closes the descriptor it holds. Copy deleted: two owners would close it twice.
struct OpenFile {
  int fd;
  explicit OpenFile(int f) : fd(f) {}
  ~OpenFile() {
    if (fd >= 0) ::close(fd);
  }
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
};

// "a FIFO", "a directory", … for a file that is not regular.
const char* file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// "67108864 bytes (64 MiB)".
std::string bytes(std::uintmax_t n) {
  std::string out = std::to_string(n) + " bytes";
  if (n >= kMiB && n % kMiB == 0) out += " (" + std::to_string(n / kMiB) + " MiB)";
  return out;
}

}  // namespace

Result<std::string> read_bounded(const std::filesystem::path& path, std::uintmax_t max_bytes,
                                 std::string_view what) {
  const std::string named = std::string(what) + " " + path.string();
  const std::string limit = "the limit of " + bytes(max_bytes);
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  OpenFile file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (file.fd < 0) return Error::usage(named + ": cannot read it: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(file.fd, &st) != 0)
    return Error::usage(named + ": cannot read it: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return Error::usage(named + ": " + file_type_name(st.st_mode) +
                        ", not a regular file; kblaster reads only regular files");
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
    return Error::usage(named + ": the file has " + bytes(st.st_size) + ", over " + limit);
  std::string text;
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(file.fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Error::environment(named + ": reading failed: " + std::strerror(errno));
    if (n == 0) return text;
    // A file that grows while it is read, or reports no size (/proc), stops here.
    if (text.size() + static_cast<std::size_t>(n) > max_bytes)
      return Error::usage(named + ": the file has more than " + limit);
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace kblaster
