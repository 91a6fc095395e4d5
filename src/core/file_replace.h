// Replacing a file whole: readers, and a kill in the middle, see the old file or
// the new one, never half of one.
#pragma once

#include <filesystem>
#include <string_view>

#include "core/status.h"

namespace kblaster {

// Writes `text` to a temporary beside `file` (named for this process and call, so
// concurrent writers never share one), then renames it over `file`. On failure the
// temporary is removed and the Error names the path and the reason.
Status replace_file(const std::filesystem::path& file, std::string_view text);

}  // namespace kblaster
