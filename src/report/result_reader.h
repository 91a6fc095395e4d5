// Saved results read into views: the reader for each kind in one table, the file
// read within limits, every error a usage error naming the file (and the field).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/status.h"
#include "report/result_view.h"

namespace kblaster {

// The view of `result`, a value of a kind in the table (check, optimize, bench, run) at a
// schema_version its reader knows; `origin` names it in errors. The view keeps a
// copy of `result`.
Result<ResultView> read_result(const nlohmann::json& result, const std::string& origin);

// The JSON in the file at `path`: read within kMaxJsonBytes, parsed, nested at most
// kMaxResultDepth deep. Not JSON or too deep is Error::usage naming the file.
Result<nlohmann::json> load_result_json(const std::filesystem::path& path);

// load_result_json, then read_result. An unknown kind is Error::usage naming the file too.
Result<ResultView> load_result(const std::filesystem::path& path);

}  // namespace kblaster
