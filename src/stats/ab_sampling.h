// Adaptive A/B sampling: take interleaved (A, B) pairs in batches and stop once
// the verdict is decided or the budget is spent. Pure: the caller times things.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "stats/ab_verdict.h"

namespace kblaster {

struct AbBudget {
  std::size_t min_pairs = 20;    // first verdict after this many pairs
  std::size_t max_pairs = 2000;  // stop here even if still AMBIGUOUS
  std::size_t batch = 20;        // then a verdict every `batch` pairs (0 counts as 1)
  double max_seconds = 30;       // wall-clock limit for the whole comparison
};

enum class AbState {
  sampling,    // take more pairs
  decided,     // the verdict at the last checkpoint is not AMBIGUOUS
  pair_limit,  // max_pairs reached
  time_limit,  // max_seconds reached
};

// "SAMPLING", "DECIDED", "PAIR_LIMIT" or "TIME_LIMIT".
const char* ab_state_name(AbState state);

// Checkpoints are at min_pairs, min_pairs + batch, ... and at max_pairs; the
// verdict is computed only there (one bootstrap each). Each look tests at alpha,
// so equal kernels end FASTER/SLOWER a little more often than alpha (2-4% in
// simulation with very noisy data); min_effect keeps it rare. Not thread-safe.
class AbSampler {
 public:
  explicit AbSampler(VerdictCriteria criteria = {}, AbBudget budget = {});

  // Records one interleaved pair of samples (seconds) and, at a checkpoint,
  // recomputes the verdict.
  void add_pair(double a_seconds, double b_seconds);

  // Where sampling stands `elapsed_seconds` into the comparison; done() is
  // state() != sampling. A decided verdict is reported before a spent limit.
  AbState state(double elapsed_seconds) const;
  bool done(double elapsed_seconds) const { return state(elapsed_seconds) != AbState::sampling; }

  // The comparison of every pair so far: the checkpoint's, or a fresh one if
  // pairs came after the last checkpoint (as when the time limit cut a batch).
  Comparison current() const;

  // Pairs still to take before the next checkpoint (0 once past max_pairs).
  std::size_t pairs_to_checkpoint() const;

  std::size_t pairs() const { return a_.size(); }
  std::span<const double> a_samples() const { return a_; }
  std::span<const double> b_samples() const { return b_; }

 private:
  bool at_checkpoint() const;

  VerdictCriteria criteria_;
  AbBudget budget_;
  std::vector<double> a_, b_;
  Comparison checkpoint_;  // verdict at the last checkpoint; AMBIGUOUS before one
  std::size_t checkpoint_pairs_ = 0;
};

}  // namespace kblaster
