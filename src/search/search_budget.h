// How long one kernel's search may go on (DESIGN.md, "Knowledge Base and MAIC-RL"): breadth
// rollouts of at most depth steps, a wall-time limit, and an early stop when rollouts stop
// improving the best. Pure: the caller passes the time in, so tests need no clock.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kblaster {

struct SearchBudget {
  int breadth = 8;           // rollouts per kernel
  int depth = 4;             // steps per rollout
  double max_seconds = 900;  // wall time for the whole search
  int patience = 2;          // rollouts in a row without improvement that stop; 0: never
  double min_gain = 0.01;    // log speedup an evaluation must add to count as improvement
};

enum class BudgetStop { running, budget_spent, time_limit, no_improvement };

// The loop asks it before each rollout and each step, and tells it each evaluation:
//   BudgetTracker budget(options, clock.now());
//   while (budget.may_start_rollout(clock.now()))
//     for (int d = 0; budget.may_take_step(d, clock.now()); ++d)
//       budget.record_evaluation(log_speedup_or_nullopt);
// The best starts at the original kernel (log speedup 0). An evaluation improves when it
// beats the best of the last improvement (initially 0) by more than min_gain, so many small
// gains add up but do not each reset the patience. Not thread-safe.
//
// Rollouts searched at once (SearchOptions::lanes) open and close their own rollouts instead:
//   if (budget.may_open_rollout(now)) … improved |= budget.record_evaluation(…); …
//   budget.end_rollout(improved);
class BudgetTracker {
 public:
  BudgetTracker(SearchBudget budget, double start_seconds);

  // Closes the rollout before (if any) and, when the search may go on, counts a new rollout
  // and returns true. Otherwise stops for good; when several reasons hold, the first of:
  // breadth rollouts done, max_seconds passed, `patience` rollouts in a row without
  // improvement.
  bool may_start_rollout(double now_seconds);
  // Counts a new rollout beside those still open, when the search may go on (may_start_rollout's
  // reasons, the patience counted over the rollouts ended so far).
  bool may_open_rollout(double now_seconds);
  // Ends one open rollout, which `improved` the best or not.
  void end_rollout(bool improved);
  // True when the current rollout may take step number depth_so_far (0-based). Reaching
  // depth ends only the rollout; passing max_seconds stops the search. A rollout still open
  // when the other stops came (breadth spent, patience) may go on to its depth.
  bool may_take_step(int depth_so_far, double now_seconds);
  // One evaluated candidate: its log speedup against the original kernel, or nullopt when
  // it failed to compile, verify or finish. True when it counts as an improvement.
  bool record_evaluation(std::optional<double> log_speedup);

  BudgetStop stop() const { return stop_; }
  // "" while running; "breadth 8 x depth 4 spent", "time limit 900 s" or
  // "no improvement > 1% in 2 rollouts" (min_gain shown as log points, i.e. ~percent).
  std::string stop_reason() const;
  int rollouts() const { return rollouts_; }
  int evaluations() const { return static_cast<int>(best_so_far_.size()); }
  double best_log_speedup() const { return best_; }
  // The best log speedup after each evaluation, for evaluations_to_reach.
  const std::vector<double>& best_so_far() const { return best_so_far_; }

 private:
  bool stop_for(BudgetStop reason);  // records the reason, returns false

  SearchBudget budget_;
  double start_seconds_;
  BudgetStop stop_ = BudgetStop::running;
  int rollouts_ = 0;
  int open_rollouts_ = 0;
  bool improved_this_rollout_ = false;
  int rollouts_without_improvement_ = 0;
  double best_ = 0.0;
  double improvement_mark_ = 0.0;  // best at the last counted improvement
  std::vector<double> best_so_far_;
};

// The 1-based index of the first evaluation at which the best-so-far speedup reaches
// `fraction` of the final gain: exp(b[i]) >= 1 + fraction * (exp(max b) - 1), where b are
// best-so-far log speedups against the original kernel and fraction is clamped to [0, 1].
// The evaluation holding the maximum always qualifies, so rounding cannot miss it.
// 0 when the sequence is empty or the final best speedup is <= 1 (no gain to reach).
int evaluations_to_reach(const std::vector<double>& best_so_far_log_speedups, double fraction);

}  // namespace kblaster
