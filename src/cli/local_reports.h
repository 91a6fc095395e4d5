// What check, bench, run, optimize and sweep write besides printing their result: the
// --report DIR files, and, inside a GitHub Actions step, the job summary.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "cli/command.h"

namespace kblaster {

// Writes the report of `values` (one result, or a sweep's run and optimize results) into
// `report_dir` (none when ""), failing as write_report_dir fails; then, when $GITHUB_STEP_SUMMARY
// names a file, appends its Markdown report there and says so on progress. A summary that cannot be
// written is a warning on progress naming the file and why, not a failure: the result itself is
// still printed and its exit code stands.
Status write_local_reports(std::span<const nlohmann::json> values, const std::string& report_dir,
                           Session& session);
inline Status write_local_reports(const nlohmann::json& value, const std::string& report_dir,
                                  Session& session) {
  return write_local_reports({&value, 1}, report_dir, session);
}

}  // namespace kblaster
