#include "core/file_write.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace kblaster {
namespace {

// What the user can do about `error`, or "" when it is no machine condition we know.
const char* remedy(int error) {
  switch (error) {
    case ENOSPC:
    case EDQUOT:
      return "the disk is full; free space on it and run again";
    case EROFS:
      return "the file system is read-only; give a writable location and run again";
    case EACCES:
    case EPERM:
      return "permission denied; make it writable for this user, or give another location";
    case ENOENT:
    case ENOTDIR:
    case EISDIR:
    case EEXIST:
    case ENAMETOOLONG:
    case ELOOP:
      return "the path cannot hold it (a folder on the way is missing, or is a file); give "
             "another location";
  }
  return "";
}

}  // namespace

Error write_failure(const std::filesystem::path& path, std::string_view doing, int error) {
  std::string message =
      "cannot " + std::string(doing) + " " + path.string() + ": " + std::strerror(error);
  const std::string what_to_do = remedy(error);
  if (what_to_do.empty()) return Error::io(message);
  return Error::environment(message + " (" + what_to_do + ")");
}

Error write_failure(const std::filesystem::path& path, std::string_view doing,
                    std::error_code error) {
  if (error.category() == std::generic_category() || error.category() == std::system_category())
    return write_failure(path, doing, error.value());
  return Error::io("cannot " + std::string(doing) + " " + path.string() + ": " + error.message());
}

namespace {

// Opens `path` with `flags`, writes `text` with write(2), checking every write and the
// close (and fsync, with FileSync::to_disk).
Status write_open(const std::filesystem::path& path, std::string_view text, int flags,
                  FileSync sync, std::string_view doing) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644);
  if (fd < 0) return write_failure(path, doing, errno);
  int error = 0;
  for (std::size_t done = 0; done < text.size() && error == 0;) {
    const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0)
      error = wrote < 0 ? errno : EIO;
    else
      done += static_cast<std::size_t>(wrote);
  }
  if (error == 0 && sync == FileSync::to_disk && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0 && errno != EINTR) error = errno;
  if (error != 0) return write_failure(path, doing, error);
  return Ok{};
}

}  // namespace

Status write_file(const std::filesystem::path& path, std::string_view text, FileSync sync) {
  return write_open(path, text, O_TRUNC, sync, "write");
}

Status write_new_file(const std::filesystem::path& path, std::string_view text, FileSync sync) {
  return write_open(path, text, O_EXCL | O_NOFOLLOW, sync, "write");
}

Status append_file(const std::filesystem::path& path, std::string_view text) {
  return write_open(path, text, O_APPEND, FileSync::none, "append to");
}

Status make_directories(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return write_failure(dir, "create the directory", ec);
  return Ok{};
}

}  // namespace kblaster
