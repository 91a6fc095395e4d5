// A saved `kblaster bench` or `kblaster run` result (kind "bench", "run") read into a ResultView:
// per kernel, its verification and its median time, with nothing to compare it against.
#pragma once

#include "core/status.h"
#include "report/json_field.h"
#include "report/result_view.h"

namespace kblaster {

// The view of the bench result at `root`: a kernel that verified and was timed is
// TIMED, with its median as the head time; one that failed verification is a
// REGRESSION; one not timed is SKIPPED, saying why. A field that is missing or of the
// wrong type is an error naming it.
Result<ResultView> read_bench(const JsonField& root);

// The view of a saved `kblaster run` result (kind "run"), which holds bench's fields
// beside its builds: read as read_bench reads them.
Result<ResultView> read_run(const JsonField& root);

}  // namespace kblaster
