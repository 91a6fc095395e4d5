// Drops timing samples taken while the GPU throttled: a sample whose SM clock is
// well below the run's median clock measures the power state, not the kernel.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace kblaster {

struct ThrottleCriteria {
  double threshold = 0.95;  // keep a sample iff clock >= threshold * median clock
};

struct ThrottleSelection {
  std::vector<std::size_t> kept;  // indices of the samples to keep, ascending
  std::size_t dropped = 0;
  double median_mhz = 0;  // median of the known clocks; 0 if none is known
  double cutoff_mhz = 0;  // threshold * median_mhz
};

// Chooses samples by their SM clocks (MHz), one per sample. A clock that is not
// a positive finite number is "unknown": the sample is kept and the clock is
// left out of the median. With no known clock at all, every sample is kept.
ThrottleSelection select_unthrottled(std::span<const double> clocks_mhz,
                                     ThrottleCriteria criteria = {});

// The samples at `selection.kept`, in order; `samples` is parallel to the clocks
// (an index past its end is skipped).
std::vector<double> kept_samples(std::span<const double> samples,
                                 const ThrottleSelection& selection);

}  // namespace kblaster
