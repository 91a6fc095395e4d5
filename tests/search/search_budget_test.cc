#include "search/search_budget.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace kblaster {
namespace {

// Runs the loop the tracker is made for. `gain(rollout, step)` is the candidate's log speedup
// against the original (nullopt: failed); each evaluation takes `seconds`.
template <class Gain>
void run(BudgetTracker& budget, Gain gain, double seconds = 1.0) {
  double now = 0;
  for (int r = 0; budget.may_start_rollout(now); ++r)
    for (int d = 0; budget.may_take_step(d, now); ++d) {
      budget.record_evaluation(gain(r, d));
      now += seconds;
    }
}

TEST(BudgetTracker, SpendsBreadthTimesDepthWhileImproving) {
  BudgetTracker budget({}, 0.0);
  run(budget, [](int r, int d) { return 0.05 * (4 * r + d + 1); });
  EXPECT_EQ(budget.stop(), BudgetStop::budget_spent);
  EXPECT_EQ(budget.stop_reason(), "breadth 8 x depth 4 spent");
  EXPECT_EQ(budget.rollouts(), 8);
  EXPECT_EQ(budget.evaluations(), 32);
  EXPECT_DOUBLE_EQ(budget.best_log_speedup(), 0.05 * 32);
}

TEST(BudgetTracker, StopsAfterPatienceRolloutsWithoutImprovement) {
  BudgetTracker budget({}, 0.0);
  // Rollout 0 gains 10%; rollouts 1 and 2 only add 0.5%, below min_gain.
  run(budget, [](int r, int) { return r == 0 ? 0.10 : 0.105; });
  EXPECT_EQ(budget.stop(), BudgetStop::no_improvement);
  EXPECT_EQ(budget.stop_reason(), "no improvement > 1% in 2 rollouts");
  EXPECT_EQ(budget.rollouts(), 3);
  EXPECT_EQ(budget.evaluations(), 12);
  EXPECT_DOUBLE_EQ(budget.best_log_speedup(), 0.105) << "the best still counts small gains";
}

TEST(BudgetTracker, FailuresAndSlowdownsAreNoImprovement) {
  BudgetTracker budget({.patience = 3}, 0.0);
  run(budget, [](int r, int) -> std::optional<double> {
    if (r == 0) return std::nullopt;
    return -0.2;
  });
  EXPECT_EQ(budget.stop_reason(), "no improvement > 1% in 3 rollouts");
  EXPECT_EQ(budget.evaluations(), 12);
  EXPECT_EQ(budget.best_so_far(), std::vector<double>(12, 0.0)) << "the original stays best";
}

TEST(BudgetTracker, RolloutsOpenAtOnceCountPatienceAsTheyEnd) {
  BudgetTracker budget({.breadth = 4, .depth = 2, .patience = 2}, 0.0);
  // Three rollouts open at once: opening them is not three rollouts without improvement.
  ASSERT_TRUE(budget.may_open_rollout(0));
  ASSERT_TRUE(budget.may_open_rollout(0));
  ASSERT_TRUE(budget.may_open_rollout(0));
  EXPECT_FALSE(budget.record_evaluation(0.0)) << "no gain";
  EXPECT_TRUE(budget.record_evaluation(0.1)) << "a gain over 1% improves";
  budget.end_rollout(false);
  budget.end_rollout(false);
  // Two ended without improvement: patience spent for new rollouts, not for the one still open.
  EXPECT_FALSE(budget.may_open_rollout(1));
  EXPECT_EQ(budget.stop(), BudgetStop::no_improvement);
  EXPECT_TRUE(budget.may_take_step(1, 1)) << "the open rollout goes on to its depth";
  EXPECT_FALSE(budget.may_take_step(2, 1)) << "and no further";
}

TEST(BudgetTracker, TheTimeLimitEndsRolloutsStillOpen) {
  BudgetTracker budget({.breadth = 2, .depth = 4, .max_seconds = 10}, 0.0);
  ASSERT_TRUE(budget.may_open_rollout(0));
  ASSERT_TRUE(budget.may_open_rollout(0));
  EXPECT_FALSE(budget.may_open_rollout(1)) << "breadth 2";
  EXPECT_TRUE(budget.may_take_step(1, 5));
  EXPECT_FALSE(budget.may_take_step(1, 10));
  EXPECT_EQ(budget.stop_reason(), "time limit 10 s");
}

TEST(BudgetTracker, SmallGainsAddUpToAnImprovement) {
  // Each rollout adds 0.6% over the last: alone below min_gain, but every second rollout
  // clears 1% over the last counted improvement, so the patience of 2 is never used up.
  BudgetTracker budget({}, 0.0);
  run(budget, [](int r, int) { return 0.006 * (r + 1); });
  EXPECT_EQ(budget.stop(), BudgetStop::budget_spent);
}

TEST(BudgetTracker, TimeLimitStopsMidRollout) {
  BudgetTracker budget({.max_seconds = 10}, 100.0);
  double now = 100;
  int steps = 0;
  while (budget.may_start_rollout(now))
    for (int d = 0; budget.may_take_step(d, now); ++d) {
      budget.record_evaluation(0.1 * ++steps);
      now += 3;
    }
  EXPECT_EQ(budget.stop(), BudgetStop::time_limit);
  EXPECT_EQ(budget.stop_reason(), "time limit 10 s");
  EXPECT_EQ(steps, 4) << "steps start at 0, 3, 6, 9 s; the one at 12 s is refused";
  EXPECT_EQ(budget.rollouts(), 1);
  EXPECT_FALSE(budget.may_start_rollout(now)) << "a stop is final";
  EXPECT_FALSE(budget.may_take_step(0, 100));
}

TEST(BudgetTracker, TimeLimitAlsoRefusesANewRollout) {
  BudgetTracker budget({.max_seconds = 900}, 0.0);
  EXPECT_TRUE(budget.may_start_rollout(0));
  EXPECT_FALSE(budget.may_start_rollout(900));
  EXPECT_EQ(budget.stop_reason(), "time limit 900 s");
}

TEST(BudgetTracker, DepthEndsOnlyTheRollout) {
  BudgetTracker budget({.breadth = 2, .depth = 1}, 0.0);
  EXPECT_EQ(budget.stop_reason(), "");
  EXPECT_FALSE(budget.may_take_step(0, 0)) << "no rollout started";
  ASSERT_TRUE(budget.may_start_rollout(0));
  EXPECT_TRUE(budget.may_take_step(0, 0));
  budget.record_evaluation(0.5);
  EXPECT_FALSE(budget.may_take_step(1, 0));
  EXPECT_EQ(budget.stop(), BudgetStop::running);
  EXPECT_TRUE(budget.may_start_rollout(0));
  EXPECT_FALSE(budget.may_start_rollout(0));
  EXPECT_EQ(budget.stop_reason(), "breadth 2 x depth 1 spent") << "ahead of no improvement";
}

TEST(BudgetTracker, ZeroPatienceNeverStopsEarly) {
  BudgetTracker budget({.patience = 0}, 0.0);
  run(budget, [](int, int) { return std::nullopt; });
  EXPECT_EQ(budget.stop(), BudgetStop::budget_spent);
}

TEST(BudgetTracker, RecordsTheBestSoFarPerEvaluation) {
  BudgetTracker budget({.breadth = 1, .depth = 5}, 0.0);
  const std::vector<std::optional<double>> gains = {-0.1, 0.2, std::nullopt, 0.1, 0.3};
  run(budget, [&](int, int d) { return gains[d]; });
  EXPECT_EQ(budget.best_so_far(), (std::vector<double>{0.0, 0.2, 0.2, 0.2, 0.3}));
}

std::vector<double> logs(std::vector<double> speedups) {
  for (double& s : speedups) s = std::log(s);
  return speedups;
}

TEST(EvaluationsToReach, FirstEvaluationWithinTheFractionOfTheFinalGain) {
  const std::vector<double> b = logs({1.0, 1.2, 1.5, 1.96, 2.0});
  EXPECT_EQ(evaluations_to_reach(b, 0.95), 4) << "target 1 + 0.95 * 1.0 = 1.95";
  EXPECT_EQ(evaluations_to_reach(b, 0.97), 5);
  EXPECT_EQ(evaluations_to_reach(b, 0.45), 3) << "target 1.45";
  EXPECT_EQ(evaluations_to_reach(b, 0.0), 1);
  EXPECT_EQ(evaluations_to_reach(b, 1.0), 5);
  EXPECT_EQ(evaluations_to_reach(b, 7.0), 5) << "fraction clamped to 1";
}

TEST(EvaluationsToReach, TheMaximumAlwaysQualifies) {
  // exp(log(x)) may round below x, and 1 + (x - 1) above it; the max still counts.
  for (double x : {1.1, 2.7, 3.7, 13.3, 1e6}) {
    const std::vector<double> b = {0.0, 0.0, std::log(x)};
    EXPECT_EQ(evaluations_to_reach(b, 1.0), 3) << x;
  }
}

TEST(EvaluationsToReach, NoGainMeansZero) {
  EXPECT_EQ(evaluations_to_reach({}, 0.95), 0);
  EXPECT_EQ(evaluations_to_reach({0.0, 0.0}, 0.95), 0);
  EXPECT_EQ(evaluations_to_reach(logs({0.8, 0.9}), 0.95), 0);
}

}  // namespace
}  // namespace kblaster
