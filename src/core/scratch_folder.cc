#include "core/scratch_folder.h"

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>

namespace kblaster {

ScratchFolder::ScratchFolder(const std::string& prefix) {
  std::error_code ec;
  const auto tmp = std::filesystem::temp_directory_path(ec);
  if (ec) {
    const char* env = std::getenv("TMPDIR");
    why_ = "no temporary directory" + (env ? " (TMPDIR=" + std::string(env) + ")" : std::string()) +
           ": " + ec.message();
    return;
  }
  std::string pattern = (tmp / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data())) {
    why_ = "mkdtemp " + pattern + ": " + std::strerror(errno);
    return;
  }
  path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace kblaster
