// What a kernel's row says, as plain text that each format escapes for itself:
// the table's cells and the search's summary.
#pragma once

#include <string>

#include "report/result_view.h"

namespace kblaster {

struct KernelCells {
  std::string base, head;  // the time with its CI when known, else what the end is
  std::string ratio;       // "12.37× (12.32–12.55)", or "–" when not timed
  std::string verdict;     // "SLOWER"
};

KernelCells kernel_cells(const KernelView& kernel);

// "launch_geometry_tuning → restrict_pointers; best 1.2× after evaluation 1 of 8";
// "" when the kernel has no search.
std::string search_summary(const KernelView& kernel);

// The time chart's values for `kernel`: its times in seconds when the result has
// both, else base as 1 and head as the ratio; nullopt when neither is there.
struct TimePair {
  Estimate base, head;
  bool relative = false;  // true: base is 1, head the ratio
};
std::optional<TimePair> time_pair(const KernelView& kernel);

}  // namespace kblaster
