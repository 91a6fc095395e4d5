#include "replay_table.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

namespace kblaster {
namespace {

// (evaluations to reach target, reached?) as ablation_table.py's to_target.
std::pair<int, bool> to_target(const std::vector<double>& speedups, double target) {
  for (std::size_t i = 0; i < speedups.size(); ++i)
    if (speedups[i] >= target) return {static_cast<int>(i) + 1, true};
  return {static_cast<int>(speedups.size()) + 1, false};
}

bool better(int a, bool a_ok, int b, bool b_ok) {
  return (a_ok && !b_ok) || (a_ok && b_ok && a < b);
}

std::vector<double> speedups(const std::vector<double>& logs) {
  std::vector<double> out;
  for (double l : logs) out.push_back(std::exp(l));
  return out;
}

}  // namespace

PairComparison compare_pair(const std::vector<double>& cold_log,
                            const std::vector<double>& warm_log) {
  const auto cold = speedups(cold_log), warm = speedups(warm_log);
  double best = 1.0;
  for (double s : cold) best = std::max(best, s);
  for (double s : warm) best = std::max(best, s);
  PairComparison p;
  p.compared = best > 1.0;
  if (!p.compared) return p;
  const double target = 1.0 + 0.95 * (best - 1.0);
  std::tie(p.cold_evals, p.cold_reached) = to_target(cold, target);
  std::tie(p.warm_evals, p.warm_reached) = to_target(warm, target);
  p.warm_wins = better(p.warm_evals, p.warm_reached, p.cold_evals, p.cold_reached);
  p.cold_wins = better(p.cold_evals, p.cold_reached, p.warm_evals, p.warm_reached);
  return p;
}

double sign_test(int a, int b) {
  const int n = a + b;
  if (n == 0) return 1.0;
  double tail = 0.0, comb = 1.0;  // C(n, i) / 2^n accumulated in logs to stay finite
  for (int i = 0; i <= std::min(a, b); ++i) {
    comb = std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0);
    tail += std::exp(comb - n * std::log(2.0));
  }
  return std::min(1.0, 2.0 * tail);
}

}  // namespace kblaster
