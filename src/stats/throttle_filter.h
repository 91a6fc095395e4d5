// Drops timing samples taken while the GPU throttled: a sample whose SM clock is
// well below the run's median clock measures the power state, not the kernel.
#pragma once

#include <cstddef>
#include <functional>
#include <queue>
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

// The online form, for sampling loops that must decide as samples arrive (so
// that the samples which decide when to stop are the ones reported). A sample
// is admitted unless its clock is known and below threshold × the median of
// every known clock seen so far, its own included. O(log n) per sample.
class ThrottleGate {
 public:
  explicit ThrottleGate(ThrottleCriteria criteria = {}) : criteria_(criteria) {}
  // Records `clock_mhz` and says whether to keep its sample.
  bool admit(double clock_mhz);
  std::size_t dropped() const { return dropped_; }
  // Median of the known clocks so far; 0 if none.
  double median_mhz() const;

 private:
  ThrottleCriteria criteria_;
  std::priority_queue<double> lower_;                                       // max-heap
  std::priority_queue<double, std::vector<double>, std::greater<>> upper_;  // min-heap
  std::size_t dropped_ = 0;
};

}  // namespace kblaster
