#include "replay_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "replay_table.h"
#include "search/search_budget.h"

namespace kblaster {
namespace {

constexpr const char* kModelNote =
    "MODEL, NOT A MEASUREMENT: the real search and KB against outcomes the H200 recorded "
    "(bench/replay/README.md lists the approximations).";

struct Mean {
  double sum = 0.0;
  int n = 0;
  void add(double x) { sum += x, ++n; }
  void add(const Mean& m) { sum += m.sum, n += m.n; }
  nlohmann::json json() const { return n ? nlohmann::json(sum / n) : nlohmann::json(); }
  std::string text() const {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f (%d)", n ? sum / n : 0.0, n);
    return n ? buf : "- (0)";
  }
};

struct Row {
  int pairs = 0, no_gain = 0, compared = 0, cold_reached = 0, warm_reached = 0;
  int warm_wins = 0, cold_wins = 0;
  Mean cold_evals, warm_evals;                  // pairs where both reached
  Mean replayed_cold_own, recorded_cold_own;    // fidelity: evaluations to own 95 %
  Mean replayed_cold_best, recorded_cold_best;  // fidelity: final best speedup
  Mean replayed_cold_n, recorded_cold_n;        // fidelity: evaluations per run
  int even() const { return compared - warm_wins - cold_wins; }
  void add(const PairComparison& p) {
    ++pairs;
    if (!p.compared) return void(++no_gain);
    ++compared, cold_reached += p.cold_reached, warm_reached += p.warm_reached;
    warm_wins += p.warm_wins, cold_wins += p.cold_wins;
    if (p.cold_reached && p.warm_reached)
      cold_evals.add(p.cold_evals), warm_evals.add(p.warm_evals);
  }
};

void add_own(Mean& evals, Mean& best, Mean& n, const std::vector<double>& speedups) {
  n.add(static_cast<double>(speedups.size()));
  double b = 1.0;
  for (double s : speedups) b = std::max(b, s);
  best.add(b);
  std::vector<double> logs;
  for (double s : speedups) logs.push_back(std::log(s));
  if (const int e = evaluations_to_reach(logs, 0.95)) evals.add(e);  // against its own best
}

std::map<std::string, Row> rows(const std::map<std::string, KernelOutcomes>& recorded,
                                const ReplayedAblation& replayed) {
  std::map<std::string, Row> out;
  for (const auto& pair : replayed.pairs) {
    Row& row = out[pair.kernel];
    row.add(compare_pair(pair.cold.best_so_far, pair.warm.best_so_far));
    std::vector<double> s;
    for (double l : pair.cold.best_so_far) s.push_back(std::exp(l));
    add_own(row.replayed_cold_own, row.replayed_cold_best, row.replayed_cold_n, s);
  }
  for (auto& [name, row] : out)
    for (const auto& run : recorded.at(name).runs())
      if (run.cold)
        add_own(row.recorded_cold_own, row.recorded_cold_best, row.recorded_cold_n,
                run.best_speedup_after);
  return out;
}

ReplayCoverage arm_coverage(const ReplayedAblation& r) {
  ReplayCoverage c;
  for (const auto& p : r.pairs)
    for (const auto* run : {&p.cold, &p.warm}) {
      c.recorded += run->coverage.recorded, c.other_parent += run->coverage.other_parent;
      c.unknown += run->coverage.unknown;
    }
  return c;
}

std::string coverage_text(const ReplayCoverage& c) {
  const double n = std::max(1, c.recorded + c.other_parent + c.unknown);
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "%d evaluations: recorded key %.1f%%, recorded change on another parent %.1f%%, "
                "unknown (SAME) %.1f%%",
                c.recorded + c.other_parent + c.unknown, 100 * c.recorded / n,
                100 * c.other_parent / n, 100 * c.unknown / n);
  return buf;
}

}  // namespace

void print_report(std::ostream& out, const std::map<std::string, KernelOutcomes>& recorded,
                  const ReplayProtocol& protocol, const ReplayedAblation& replayed) {
  out << kModelNote << "\n\n";
  out << "Replayed ablation: breadth " << protocol.budget.breadth << " x depth "
      << protocol.budget.depth << ", " << protocol.budget.max_seconds << " simulated s, top k "
      << protocol.choice.top_k << ", explore share " << protocol.choice.explore_share << ", "
      << protocol.seeds.size() << " seeds, training seeds";
  for (auto t : protocol.train_seeds) out << " " << t;
  out << ", " << recorded.size() << " kernels recorded.\n\n";
  out << "| kernel | pairs | no gain | cold reached | warm reached | mean evals to target, cold / "
         "warm (both reached) | warm wins | cold wins | even "
         "|\n|---|---|---|---|---|---|---|---|---|\n";
  const auto by_kernel = rows(recorded, replayed);
  Row total;
  auto line = [&](const std::string& name, const Row& r) {
    out << "| " << name << " | " << r.pairs << " | " << r.no_gain << " | " << r.cold_reached
        << " | " << r.warm_reached << " | " << r.cold_evals.text() << " / " << r.warm_evals.text()
        << " | " << r.warm_wins << " | " << r.cold_wins << " | " << r.even() << " |\n";
  };
  for (const auto& k : protocol.kernels) {
    const Row& r = by_kernel.at(k);
    line(k, r);
    total.pairs += r.pairs, total.no_gain += r.no_gain, total.compared += r.compared;
    total.cold_reached += r.cold_reached, total.warm_reached += r.warm_reached;
    total.warm_wins += r.warm_wins, total.cold_wins += r.cold_wins;
    total.cold_evals.add(r.cold_evals), total.warm_evals.add(r.warm_evals);
  }
  line("**total**", total);
  char p[64];
  std::snprintf(p, sizeof p, "%.3g", sign_test(total.warm_wins, total.cold_wins));
  out << "\nWarm won " << total.warm_wins << ", cold won " << total.cold_wins << ", even "
      << total.even() << "; two-sided sign test over " << total.warm_wins + total.cold_wins
      << " decided pairs: p = " << p << " (model).\n\n";
  out << "Coverage, compared arms: " << coverage_text(arm_coverage(replayed)) << "\n";
  out << "Coverage, training runs: " << coverage_text(replayed.training) << "\n\n";
  out << "Fidelity (cold arm): evaluations to 95 % of the run's own best gain, mean (runs with a "
         "gain), mean best speedup and mean evaluations per run; replayed vs recorded cold runs "
         "(n in brackets).\n\n"
         "| kernel | evals to 95 %, replayed | recorded | best, replayed | recorded "
         "| evals per run, replayed | recorded |\n|---|---|---|---|---|---|---|\n";
  for (const auto& k : protocol.kernels) {
    const Row& r = by_kernel.at(k);
    out << "| " << k << " | " << r.replayed_cold_own.text() << " | " << r.recorded_cold_own.text()
        << " | " << r.replayed_cold_best.text() << " | " << r.recorded_cold_best.text() << " | "
        << r.replayed_cold_n.text() << " | " << r.recorded_cold_n.text() << " |\n";
  }
  out << "\nReconstruction of recorded steps (exact / after stripping a parenthetical / "
         "unmatched / skipped after an unmatched FASTER step, of all steps):\n";
  for (const auto& [name, k] : recorded) {
    const auto& c = k.counts();
    out << "  " << name << ": " << c.exact << " / " << c.loose << " / " << c.unmatched << " / "
        << c.skipped << " of " << c.steps << " in " << k.runs().size() << " runs";
    for (const auto& e : c.unmatched_examples) out << "; unmatched: " << e;
    out << "; parents with a profiled launch: " << c.parents_with_launch << " of " << c.parents
        << "\n";
  }
}

nlohmann::json report_json(const std::map<std::string, KernelOutcomes>& recorded,
                           const ReplayProtocol& protocol, const ReplayedAblation& replayed) {
  nlohmann::json kernels = nlohmann::json::array();
  const auto by_kernel = rows(recorded, replayed);
  int ww = 0, cw = 0;
  for (const auto& k : protocol.kernels) {
    const Row& r = by_kernel.at(k);
    const auto& c = recorded.at(k).counts();
    ww += r.warm_wins, cw += r.cold_wins;
    kernels.push_back({{"kernel", k},
                       {"pairs", r.pairs},
                       {"no_gain", r.no_gain},
                       {"warm_wins", r.warm_wins},
                       {"cold_wins", r.cold_wins},
                       {"even", r.even()},
                       {"mean_evals_to_target_cold", r.cold_evals.json()},
                       {"mean_evals_to_target_warm", r.warm_evals.json()},
                       {"fidelity_replayed_cold_evals", r.replayed_cold_own.json()},
                       {"fidelity_recorded_cold_evals", r.recorded_cold_own.json()},
                       {"fidelity_replayed_cold_best", r.replayed_cold_best.json()},
                       {"fidelity_recorded_cold_best", r.recorded_cold_best.json()},
                       {"fidelity_replayed_cold_evaluations", r.replayed_cold_n.json()},
                       {"fidelity_recorded_cold_evaluations", r.recorded_cold_n.json()},
                       {"steps", c.steps},
                       {"unmatched", c.unmatched},
                       {"skipped", c.skipped},
                       {"parents_with_launch", c.parents_with_launch},
                       {"parents", c.parents}});
  }
  const auto cov = arm_coverage(replayed);
  return {
      {"note", kModelNote},
      {"kernels", kernels},
      {"warm_wins", ww},
      {"cold_wins", cw},
      {"sign_test_p", sign_test(ww, cw)},
      {"coverage",
       {{"recorded", cov.recorded}, {"other_parent", cov.other_parent}, {"unknown", cov.unknown}}}};
}

}  // namespace kblaster
