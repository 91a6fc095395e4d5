// A saved `kblaster check` result (kind "check", reports/schema/check.schema.json)
// read into a ResultView.
#pragma once

#include "core/status.h"
#include "report/json_field.h"
#include "report/result_view.h"

namespace kblaster {

// The view of the check result at `root`: a kernel per row, base and head as their
// build outcomes, the ratio head/base with its CI when timed. A field that is
// missing or of the wrong type is an error naming it.
Result<ResultView> read_check(const JsonField& root);

}  // namespace kblaster
