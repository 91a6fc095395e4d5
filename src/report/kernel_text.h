// What a kernel's row says, as plain text that each format escapes for itself:
// the table's cells and the search's summary.
#pragma once

#include <string>

#include "report/result_view.h"

namespace kblaster {

// The cells of a kernel's row in the report's table.
struct KernelCells {
  std::string base, head;  // the time with its CI when known, else what the end is
  std::string ratio;       // "12.37× (12.32–12.55)", or "–" when not timed
  std::string verdict;     // "SLOWER"
};

// The row of `kernel`; "–" where it has no ratio.
KernelCells kernel_cells(const KernelView& kernel);

// "launch_geometry_tuning → restrict_pointers; best 1.2× after evaluation 1 of 8";
// "" when the kernel has no search.
std::string search_summary(const KernelView& kernel);

// A kernel's two times as the time chart draws them.
struct TimePair {
  Estimate base, head;
  bool relative = false;  // true: base is 1, head the ratio
};
// The time chart's values for `kernel`: its times in seconds when the result has
// both, else base as 1 and head as the ratio; nullopt when neither is there.
std::optional<TimePair> time_pair(const KernelView& kernel);

}  // namespace kblaster
