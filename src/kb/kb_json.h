// The KB as stable, sorted JSON, so that a KB diff in a pull request is reviewable:
// {"best_kernels": [...], "kblaster_kb": 1, "lessons": [...], "schema_version": N,
//  "states": [...], "stats": [...], "techniques": [...], "trajectories": [...]}.
// Object keys are sorted, rows are in primary-key order, trajectory steps are nested
// in their trajectory, doubles print as the shortest text that reads back exactly,
// and the text is indented by 2 spaces and ends in a newline.
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"
#include "kb/dump.h"
#include "kb/store.h"

namespace kblaster {

inline constexpr int kKbJsonFormat = 1;  // the "kblaster_kb" value

// Reads every table in one transaction. A NaN or infinite double is an Error::io naming
// table, row and field; text that is not valid UTF-8 is an Error::io from the encoder.
Result<std::string> export_json(const Store& store);
Result<std::string> kb_to_json(const KbContents& kb);

// Imports `json` into `store`, which must be empty (Error::usage otherwise), in one
// transaction; rows, stats included, are stored as they are. A malformed document
// is an Error::config naming the table, row and field; nothing is written then.
Status import_json(Store& store, std::string_view json);
Result<KbContents> kb_from_json(std::string_view json);

}  // namespace kblaster
