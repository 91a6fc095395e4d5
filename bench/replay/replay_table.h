// The comparison of bench/ablation_table.py, on replayed runs: per pair, evaluations to
// 95 % of the best gain of either arm (gain = speedup - 1, from best_so_far), the
// winner, and the two-sided sign test. Pure.
#pragma once

#include <vector>

namespace kblaster {

// One cold/warm pair, as ablation_table.py's Pair: `compared` when either gained.
struct PairComparison {
  bool compared = false;
  bool cold_reached = false, warm_reached = false;
  int cold_evals = 0, warm_evals = 0;  // to target; when not reached, evaluations + 1
  bool warm_wins = false, cold_wins = false;
};

// `cold` and `warm` are best-so-far log speedups, one per evaluation.
PairComparison compare_pair(const std::vector<double>& cold, const std::vector<double>& warm);

// Two-sided exact sign test over a + b decided pairs.
double sign_test(int a, int b);

}  // namespace kblaster
