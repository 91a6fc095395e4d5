#include "search/technique_choice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kblaster {

namespace {

TechniqueChoice explore(const std::vector<const Prediction*>& untried, RandomSource& random) {
  const Prediction& p = *untried[random.index(untried.size())];
  return {p.technique, ChoiceMode::explore, p.expected_log_speedup,
          1.0 / static_cast<double>(untried.size())};
}

// `ranked` is sorted best first and not empty.
TechniqueChoice exploit(std::vector<const Prediction*> ranked, const ChoiceOptions& options,
                        RandomSource& random) {
  ranked.resize(std::min(ranked.size(), static_cast<std::size_t>(std::max(options.top_k, 1))));
  std::vector<double> weights(ranked.size(), 0.0);
  if (options.temperature <= 0) {
    weights[0] = 1.0;
  } else {
    // Stable softmax: subtracting the best makes every exponent <= 0, the best's exactly 0.
    const double best = ranked[0]->expected_log_speedup;
    double sum = 0.0;
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      weights[i] = std::exp((ranked[i]->expected_log_speedup - best) / options.temperature);
      sum += weights[i];
    }
    for (double& w : weights) w /= sum;
  }
  const double u = random.uniform();
  std::size_t pick = ranked.size() - 1;  // rounding may leave the cumulative sum just below u
  double cumulative = 0.0;
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    cumulative += weights[i];
    if (u < cumulative) {
      pick = i;
      break;
    }
  }
  return {ranked[pick]->technique, ChoiceMode::exploit, ranked[pick]->expected_log_speedup,
          weights[pick]};
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
    if (p->attempts == 0) untried.push_back(p);
  if (random.uniform() < options.explore_share && !untried.empty()) return explore(untried, random);
  return exploit(std::move(ranked), options, random);
}

std::string describe_choice(const TechniqueChoice& choice) {
  double percent = std::expm1(choice.predicted_log_speedup) * 100.0;
  if (std::fabs(percent) < 0.05) percent = 0.0;  // print +0.0%, never -0.0%
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.1f%%, %s, weight %.2f", percent, choice_mode_name(choice.mode),
                choice.weight);
  return "chose " + choice.technique + " (predicted " + buf + ")";
}

}  // namespace kblaster
