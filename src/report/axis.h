// The scale of a chart axis: the range it covers and its round ticks, chosen from
// the numbers it must show. Pure; tested on zero, one and equal values, huge
// ratios and values that are not finite.
#pragma once

#include <span>
#include <vector>

namespace kblaster {

// How values map to positions: evenly, or evenly by their logarithm.
enum class Scale { linear, log };

// One axis of a chart: the range it covers and where its ticks go.
struct Axis {
  Scale scale = Scale::linear;
  double lo = 0.0, hi = 1.0;  // the range drawn; lo < hi, both positive on a log axis
  std::vector<double> ticks;  // ascending, inside [lo, hi]

  // Where `v` falls along the axis: 0 at lo, 1 at hi, clamped to [0, 1]; NaN for a
  // value no axis places (not finite, beyond 1e300, or below 1e-300 on a log axis).
  double position(double v) const;
};

// An axis that covers every value it can place with at most `max_ticks` round ticks
// (1, 2, 5 times a power of ten; a log axis over many decades ticks every k-th
// decade). With nothing to place it covers [0, 1] (log: [1, 2]); one value, or
// equal values, get room around them.
Axis make_axis(std::span<const double> values, Scale scale, int max_ticks = 6);

// Scale::log when the values a log axis places span more than `ratio` (max / min),
// else Scale::linear.
Scale scale_for(std::span<const double> values, double ratio = 100.0);

}  // namespace kblaster
