#include "stats/ab_sampling.h"

#include <algorithm>

namespace kblaster {

const char* ab_state_name(AbState state) {
  switch (state) {
    case AbState::sampling:
      return "SAMPLING";
    case AbState::decided:
      return "DECIDED";
    case AbState::pair_limit:
      return "PAIR_LIMIT";
    case AbState::time_limit:
      return "TIME_LIMIT";
  }
  return "?";
}

AbSampler::AbSampler(VerdictCriteria criteria, AbBudget budget)
    : criteria_(criteria), budget_(budget), checkpoint_(compare({}, {}, criteria)) {
  budget_.batch = std::max<std::size_t>(1, budget_.batch);
  budget_.min_pairs = std::min(budget_.min_pairs, budget_.max_pairs);
}

bool AbSampler::at_checkpoint() const {
  const std::size_t n = pairs();
  if (n == budget_.max_pairs) return true;
  return n >= budget_.min_pairs && n < budget_.max_pairs &&
         (n - budget_.min_pairs) % budget_.batch == 0;
}

void AbSampler::add_pair(double a_seconds, double b_seconds) {
  a_.push_back(a_seconds);
  b_.push_back(b_seconds);
  if (at_checkpoint()) {
    checkpoint_ = compare(a_, b_, criteria_);
    checkpoint_pairs_ = pairs();
  }
}

AbState AbSampler::state(double elapsed_seconds) const {
  if (checkpoint_pairs_ > 0 && !needs_more_samples(checkpoint_)) return AbState::decided;
  if (pairs() >= budget_.max_pairs) return AbState::pair_limit;
  if (elapsed_seconds >= budget_.max_seconds) return AbState::time_limit;
  return AbState::sampling;
}

Comparison AbSampler::current() const {
  if (checkpoint_pairs_ == pairs()) return checkpoint_;
  return compare(a_, b_, criteria_);
}

std::size_t AbSampler::pairs_to_checkpoint() const {
  const std::size_t n = pairs();
  if (n >= budget_.max_pairs) return 0;
  if (n < budget_.min_pairs) return budget_.min_pairs - n;
  const std::size_t into_batch = (n - budget_.min_pairs) % budget_.batch;
  return std::min(budget_.batch - into_batch, budget_.max_pairs - n);
}

}  // namespace kblaster
