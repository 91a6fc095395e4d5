#include "core/file_replace.h"

#include <unistd.h>

#include <atomic>
#include <string>

#include "core/file_write.h"

namespace kblaster {

std::filesystem::path temporary_beside(const std::filesystem::path& file) {
  static std::atomic<unsigned> calls{0};
  return file.string() + ".kblaster-tmp." + std::to_string(::getpid()) + "." +
         std::to_string(calls++);
}

namespace {

// What a non-regular file is, for the message that refuses to replace it.
const char* kind_of(std::filesystem::file_type type) {
  switch (type) {
    case std::filesystem::file_type::directory:
      return "a directory";
    case std::filesystem::file_type::character:
      return "a character device";
    case std::filesystem::file_type::block:
      return "a block device";
    case std::filesystem::file_type::fifo:
      return "a FIFO";
    case std::filesystem::file_type::socket:
      return "a socket";
    default:
      return "not a regular file";
  }
}

}  // namespace

Status replace_file(const std::filesystem::path& file, std::string_view text) {
  std::error_code ec;
  // Renaming over /dev/full or a FIFO would swap the node for a plain file and report
  // success: refuse anything there that is neither a regular file nor a link.
  const auto type = std::filesystem::symlink_status(file, ec).type();
  if (!ec && type != std::filesystem::file_type::regular &&
      type != std::filesystem::file_type::symlink && type != std::filesystem::file_type::not_found)
    return Error::usage("cannot replace " + file.string() + ": it is " + kind_of(type) +
                        "; kblaster writes a file whole and renames it into place, so name a "
                        "regular file (or leave the flag out to write to stdout where it can)");
  const std::filesystem::path tmp = temporary_beside(file);
  // On the disk before the rename, so a crash leaves the old file or the whole new one.
  if (auto written = write_new_file(tmp, text, FileSync::to_disk); !written) {
    std::filesystem::remove(tmp, ec);
    return written.error();
  }
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    Error failed = write_failure(file, "replace", ec);
    std::filesystem::remove(tmp, ec);
    return failed;
  }
  return Ok{};
}

}  // namespace kblaster
