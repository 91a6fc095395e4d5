#include "search/search_budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kblaster {

BudgetTracker::BudgetTracker(SearchBudget budget, double start_seconds)
    : budget_(budget), start_seconds_(start_seconds) {}

bool BudgetTracker::stop_for(BudgetStop reason) {
  stop_ = reason;
  return false;
}

bool BudgetTracker::may_start_rollout(double now_seconds) {
  if (open_rollouts_ > 0) end_rollout(improved_this_rollout_);
  return may_open_rollout(now_seconds);
}

bool BudgetTracker::may_open_rollout(double now_seconds) {
  if (stop_ != BudgetStop::running) return false;
  if (rollouts_ >= budget_.breadth) return stop_for(BudgetStop::budget_spent);
  if (now_seconds - start_seconds_ >= budget_.max_seconds) return stop_for(BudgetStop::time_limit);
  if (budget_.patience > 0 && rollouts_without_improvement_ >= budget_.patience)
    return stop_for(BudgetStop::no_improvement);
  ++rollouts_;
  ++open_rollouts_;
  improved_this_rollout_ = false;
  return true;
}

void BudgetTracker::end_rollout(bool improved) {
  if (open_rollouts_ > 0) --open_rollouts_;
  rollouts_without_improvement_ = improved ? 0 : rollouts_without_improvement_ + 1;
}

bool BudgetTracker::may_take_step(int depth_so_far, double now_seconds) {
  // Only the time limit ends the rollouts already open; the other stops refuse new ones.
  if (rollouts_ == 0 || stop_ == BudgetStop::time_limit) return false;
  if (now_seconds - start_seconds_ >= budget_.max_seconds) return stop_for(BudgetStop::time_limit);
  return depth_so_far < budget_.depth;
}

bool BudgetTracker::record_evaluation(std::optional<double> log_speedup) {
  bool improved = false;
  if (log_speedup) {
    best_ = std::max(best_, *log_speedup);
    if (*log_speedup > improvement_mark_ + budget_.min_gain) {
      improvement_mark_ = *log_speedup;
      improved_this_rollout_ = improved = true;
    }
  }
  best_so_far_.push_back(best_);
  return improved;
}

std::string BudgetTracker::stop_reason() const {
  char buf[96];
  switch (stop_) {
    case BudgetStop::running:
      return "";
    case BudgetStop::budget_spent:
      std::snprintf(buf, sizeof buf, "breadth %d x depth %d spent", budget_.breadth, budget_.depth);
      return buf;
    case BudgetStop::time_limit:
      std::snprintf(buf, sizeof buf, "time limit %g s", budget_.max_seconds);
      return buf;
    case BudgetStop::no_improvement:
      std::snprintf(buf, sizeof buf, "no improvement > %g%% in %d rollouts",
                    budget_.min_gain * 100.0, budget_.patience);
      return buf;
  }
  return "";
}

int evaluations_to_reach(const std::vector<double>& best_so_far_log_speedups, double fraction) {
  const std::vector<double>& b = best_so_far_log_speedups;
  if (b.empty()) return 0;
  const double final_log = *std::max_element(b.begin(), b.end());
  if (!(final_log > 0.0)) return 0;
  const double target = 1.0 + std::clamp(fraction, 0.0, 1.0) * std::expm1(final_log);
  for (std::size_t i = 0; i < b.size(); ++i)
    if (std::exp(b[i]) >= target || b[i] >= final_log) return static_cast<int>(i) + 1;
  return static_cast<int>(b.size());  // unreachable: the maximum qualifies
}

}  // namespace kblaster
