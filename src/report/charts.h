// The report's charts: small pure functions from numbers to the text of one inline
// SVG image. Each returns "" when it has nothing it can draw.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "report/result_view.h"

namespace kblaster {

// One kernel's time at base and at head, with their CIs, in one unit; `*_text`
// labels the bars ("1.6×", "65.8 µs").
struct TimeBars {
  std::string label;
  Estimate base, head;
  std::string base_text, head_text;
  Tone tone = Tone::neutral;  // colours head's bar
};

// Per kernel, a bar for base and one for head with CI whiskers, on one axis from
// zero (log when the values span more than 100×) titled `axis_title`.
std::string time_chart(std::span<const TimeBars> rows, std::string_view axis_title);

// One kernel's speedup (base time / head time) with its CI.
struct SpeedupBar {
  std::string label;
  Estimate speedup;
  Tone tone = Tone::neutral;
};

// Per kernel, a bar from 1× to its speedup on a log axis, left when slower, right
// when faster, with CI whiskers.
std::string speedup_chart(std::span<const SpeedupBar> rows);

// The best verified speedup after each evaluation, at `x` (evaluations, seconds).
struct ProgressPoint {
  double x = 0.0;
  double best_speedup = 1.0;
};

// A step line from 1× at x = 0 through `points`, marked at each, under `label`.
std::string progress_chart(std::span<const ProgressPoint> points, std::string_view x_title,
                           std::string_view label);

// The roofline of the ceilings in `view` on log-log axes (FLOP/byte, FLOP/s) and its
// points, with an arrow from the first to the last. Points whose intensity or FLOP/s
// is not positive are named in a note instead of drawn.
std::string roofline_chart(const RooflineView& view, std::string_view label);

}  // namespace kblaster
