// Writing files and directories with errors that say why: a full disk, a
// read-only file system or a denied permission is the machine's problem (exit 3,
// with what to do), not kblaster's (exit 4).
#pragma once

#include <filesystem>
#include <string_view>
#include <system_error>

#include "core/status.h"

namespace kblaster {

// The error for failing to `doing` (e.g. "write", "create the directory") `path`
// with errno `error`: Error::environment for ENOSPC and EDQUOT (saying the disk
// is full), EROFS, EACCES and EPERM, and for a path that cannot hold the file (ENOENT,
// ENOTDIR, EISDIR, EEXIST, ENAMETOOLONG, ELOOP: a user-named path, not kblaster's bug);
// Error::io otherwise. The message names the path.
Error write_failure(const std::filesystem::path& path, std::string_view doing, int error);
Error write_failure(const std::filesystem::path& path, std::string_view doing,
                    std::error_code error);

// Whether write_file waits for the bytes to reach the disk before it returns.
enum class FileSync { none, to_disk };

// Creates or truncates `path` and writes `text` to it with write(2), checking every
// write and the close (and fsync, with FileSync::to_disk). Errors from write_failure.
Status write_file(const std::filesystem::path& path, std::string_view text,
                  FileSync sync = FileSync::none);

// As write_file, but `path` must not exist yet (O_EXCL, O_NOFOLLOW): nothing planted there, a
// link included, is written through.
Status write_new_file(const std::filesystem::path& path, std::string_view text,
                      FileSync sync = FileSync::none);

// Creates `path` if absent and appends `text` to it (O_APPEND), checked as write_file
// checks; errors from write_failure ("cannot append to PATH: …").
Status append_file(const std::filesystem::path& path, std::string_view text);

// std::filesystem::create_directories, its failure from write_failure.
Status make_directories(const std::filesystem::path& dir);

}  // namespace kblaster
