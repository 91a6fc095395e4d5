// `--report DIR` of check, bench and optimize: the report of a command's own
// result in every format, written beside each other.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>

#include "core/status.h"

namespace kblaster {

// Writes DIR/report.md, DIR/report.html and DIR/report.json of `results` (values as
// the commands make them), creating DIR; each file is replaced whole. A result that
// does not read is Error::internal (the command made it); write failures are
// replace_file's errors.
Status write_report_dir(std::span<const nlohmann::json> results, const std::filesystem::path& dir);

}  // namespace kblaster
