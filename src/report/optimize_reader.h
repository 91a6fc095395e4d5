// A saved `kblaster optimize` result (kind "optimize") read into a ResultView: per
// kernel, the baseline against the best verified candidate, the search's progress,
// the profile delta and, when recorded, the roofline.
#pragma once

#include "core/status.h"
#include "report/json_field.h"
#include "report/result_view.h"

namespace kblaster {

// The view of the optimize result at `root`: its `kernels` are the per-kernel
// results eval/optimize_report.h writes. A field that is missing or of the wrong
// type is an error naming it.
Result<ResultView> read_optimize(const JsonField& root);

}  // namespace kblaster
