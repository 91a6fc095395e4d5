// Replacing a file whole: readers, and a kill in the middle, see the old file or
// the new one, never half of one.
#pragma once

#include <filesystem>
#include <string_view>

#include "core/status.h"

namespace kblaster {

// A path beside `file` for writing its next version: `file` plus ".kblaster-tmp.",
// the process id and a per-process count, so concurrent writers never share one.
std::filesystem::path temporary_beside(const std::filesystem::path& file);

// Writes `text` to a temporary beside `file` (named for this process and call, so
// concurrent writers never share one), flushes it to the disk, then renames it over
// `file`. On failure the temporary is removed and the Error (write_failure's: exit 3
// for a full disk, a read-only or a forbidden place) names the path and the reason.
// An existing `file` that is a directory, device, FIFO or socket is a usage error,
// and nothing is written. A symbolic link at `file` is itself replaced, never
// written through.
Status replace_file(const std::filesystem::path& file, std::string_view text);

}  // namespace kblaster
