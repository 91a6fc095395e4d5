// Reading a whole file that a user named (on the command line, or in an environment
// variable), within a size limit: /dev/zero, a FIFO or a huge file can neither hang
// kblaster nor exhaust its memory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/status.h"

namespace kblaster {

// The whole of `path`, which must be a regular file (symlinks followed) of at most
// `max_bytes`. Never blocks on a FIFO. A missing, unreadable, non-regular or too
// large file is a usage error "<what> <path>: …" that names the limit where it
// applies; a failing read is an environment error. `what` is the flag or variable.
Result<std::string> read_bounded(const std::filesystem::path& path, std::uintmax_t max_bytes,
                                 std::string_view what);

}  // namespace kblaster
