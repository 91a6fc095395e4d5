#include "search/technique_choice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kblaster {

namespace {

TechniqueChoice explore(const std::vector<const Prediction*>& untried, RandomSource& random) {
  const Prediction& p = *untried[random.index(untried.size())];
  return {p.technique, ChoiceMode::explore, p.expected_log_speedup, p.uncertainty,
          1.0 / static_cast<double>(untried.size())};
}

TechniqueChoice exploited(const Prediction& p, double weight) {
  return {p.technique, ChoiceMode::exploit, p.expected_log_speedup, p.uncertainty, weight};
}

// Each technique's share of `draws` posterior samples in which it has the largest gain.
// `ranked` is sorted best expected gain first, so a tie credits the better-ranked one.
std::vector<double> chance_of_being_best(const std::vector<const Prediction*>& ranked, int draws,
                                         RandomSource& random) {
  std::vector<double> share(ranked.size(), 0.0);
  for (int d = 0; d < draws; ++d) {
    std::size_t best = 0;
    double best_gain = 0.0;
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      const double gain =
          ranked[i]->expected_log_speedup + ranked[i]->uncertainty * random.normal();
      if (i == 0 || gain > best_gain) best = i, best_gain = gain;
    }
    share[best] += 1.0 / draws;
  }
  return share;
}

// `ranked` is sorted best first and not empty.
TechniqueChoice exploit(const std::vector<const Prediction*>& ranked, const ChoiceOptions& options,
                        RandomSource& random) {
  if (options.draws <= 0) return exploited(*ranked[0], 1.0);
  const std::vector<double> share = chance_of_being_best(ranked, options.draws, random);
  std::vector<std::size_t> order(ranked.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return share[a] > share[b]; });
  order.resize(std::min(order.size(), static_cast<std::size_t>(std::max(options.top_k, 1))));
  double sum = 0.0;
  for (std::size_t i : order) sum += share[i];
  const double u = random.uniform() * sum;
  std::size_t pick = order.back();  // not reached: u < sum, summed in the same order
  double cumulative = 0.0;
  for (std::size_t i : order) {
    cumulative += share[i];
    if (u < cumulative) {
      pick = i;
      break;
    }
  }
  return exploited(*ranked[pick], share[pick] / sum);
}

}  // namespace

const char* choice_mode_name(ChoiceMode mode) {
  return mode == ChoiceMode::explore ? "explore" : "exploit";
}

std::optional<TechniqueChoice> choose_technique(const std::vector<Prediction>& predictions,
                                                const std::set<std::string>& applicable,
                                                const std::set<std::string>& exclude,
                                                const ChoiceOptions& options,
                                                RandomSource& random) {
  std::vector<const Prediction*> ranked, untried;
  for (const Prediction& p : predictions) {
    if (!applicable.contains(p.technique) || exclude.contains(p.technique)) continue;
    ranked.push_back(&p);
  }
  if (ranked.empty()) return std::nullopt;
  std::sort(ranked.begin(), ranked.end(), [](const Prediction* a, const Prediction* b) {
    if (a->expected_log_speedup != b->expected_log_speedup)
      return a->expected_log_speedup > b->expected_log_speedup;
    return a->technique < b->technique;
  });
  for (const Prediction* p : ranked)
    if (p->attempts_here == 0) untried.push_back(p);
  if (random.uniform() < options.explore_share && !untried.empty()) return explore(untried, random);
  return exploit(ranked, options, random);
}

std::string describe_choice(const TechniqueChoice& choice) {
  double percent = std::expm1(choice.predicted_log_speedup) * 100.0;
  if (std::fabs(percent) < 0.05) percent = 0.0;  // print +0.0%, never -0.0%
  char buf[96];
  std::snprintf(buf, sizeof buf, "%+.1f%% ± %.1f%%, %s, weight %.2f", percent,
                std::expm1(choice.uncertainty) * 100.0, choice_mode_name(choice.mode),
                choice.weight);
  return "chose " + choice.technique + " (predicted " + buf + ")";
}

}  // namespace kblaster
