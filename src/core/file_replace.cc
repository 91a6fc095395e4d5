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

Status replace_file(const std::filesystem::path& file, std::string_view text) {
  const std::filesystem::path tmp = temporary_beside(file);
  std::error_code ec;
  // On the disk before the rename, so a crash leaves the old file or the whole new one.
  if (auto written = write_file(tmp, text, FileSync::to_disk); !written) {
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
