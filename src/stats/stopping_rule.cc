#include "stats/stopping_rule.h"

#include <algorithm>
#include <limits>

#include "stats/median_interval.h"

namespace kblaster {

const char* stop_reason_name(StopReason reason) {
  switch (reason) {
    case StopReason::keep_going:
      return "KEEP_GOING";
    case StopReason::converged:
      return "CONVERGED";
    case StopReason::time_limit:
      return "TIME_LIMIT";
  }
  return "?";
}

StoppingRule::StoppingRule(StoppingCriteria criteria)
    : criteria_(criteria), noise_(std::numeric_limits<double>::infinity()) {}

void StoppingRule::add(double sample_seconds) {
  sorted_.push_back(sample_seconds);
  gpu_seconds_ += sample_seconds;
  if (sorted_.size() - sorted_count_ >= std::max<std::size_t>(1, sorted_count_ / 128)) {
    refresh_noise();
  }
}

void StoppingRule::refresh_noise() {
  const auto tail = sorted_.begin() + static_cast<std::ptrdiff_t>(sorted_count_);
  std::sort(tail, sorted_.end());
  std::inplace_merge(sorted_.begin(), tail, sorted_.end());
  sorted_count_ = sorted_.size();
  noise_ = relative_half_width(median_interval_of_sorted(sorted_), sorted_.size());
}

StopDecision StoppingRule::decide(double elapsed_wall_seconds) const {
  StopDecision d;
  d.noise = noise_;
  d.samples = sorted_.size();
  d.gpu_seconds = gpu_seconds_;
  if (d.samples >= criteria_.min_samples && gpu_seconds_ >= criteria_.min_gpu_seconds &&
      noise_ <= criteria_.max_noise) {
    d.reason = StopReason::converged;
  } else if (elapsed_wall_seconds >= criteria_.max_seconds) {
    d.reason = StopReason::time_limit;
  }
  return d;
}

}  // namespace kblaster
