#include "core/file_replace.h"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <string>

namespace kblaster {

Status replace_file(const std::filesystem::path& file, std::string_view text) {
  static std::atomic<unsigned> calls{0};
  const std::filesystem::path tmp =
      file.string() + ".kblaster-tmp." + std::to_string(::getpid()) + "." + std::to_string(calls++);
  std::error_code ec;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out.flush()) {
      std::filesystem::remove(tmp, ec);
      return Error::io("cannot write " + tmp.string());
    }
  }
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    const std::string why = ec.message();
    std::filesystem::remove(tmp, ec);
    return Error::io("cannot replace " + file.string() + ": " + why);
  }
  return Ok{};
}

}  // namespace kblaster
