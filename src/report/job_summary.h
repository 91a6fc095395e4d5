// The GitHub Actions job summary: the Markdown report of a run's results, appended
// to the file $GITHUB_STEP_SUMMARY names, on every run that has one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>

#include "core/status.h"

namespace kblaster {

// GitHub shows at most this many bytes of one step's summary file.
inline constexpr std::uintmax_t kJobSummaryLimit = 1024 * 1024;

// Appends the Markdown report of `results` (values as the commands make them) to
// `file`, after whatever earlier steps wrote. When the report would take the file past
// kJobSummaryLimit, a one-line note saying so is appended instead. A result that does
// not read is Error::internal (the command made it); write errors name `file`.
Status append_job_summary(std::span<const nlohmann::json> results,
                          const std::filesystem::path& file);

}  // namespace kblaster
