// Which technique a search step tries next (DESIGN.md, "Knowledge Base and MAIC-RL", step 2):
// a weighted random choice among the top k, with a share kept for untried techniques so the
// search still explores. The weight of a technique is the KB's belief that it is the best on
// offer (Thompson sampling over the predictions). Against one other technique of the same mean
// it is a coin toss, whatever the spreads; but a technique measured many times at no gain in
// this state rarely beats the best of several unmeasured ones, and never a measured winner, where a
// softmax over the means would draw it as often as either. Pure: the randomness is passed in.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kb/prediction.h"
#include "stats/random_source.h"

namespace kblaster {

struct ChoiceOptions {
  int top_k = 4;                // exploit among the k likeliest to be best (< 1 means 1)
  double explore_share = 0.25;  // chance of trying an untried technique when one is left
  int draws = 2000;             // posterior samples behind the weights; <= 0 takes the
                                // best expected gain (ties by technique id)
};

enum class ChoiceMode { exploit, explore };
const char* choice_mode_name(ChoiceMode mode);  // "exploit" or "explore"

// One choice, with what the caller prints about it.
struct TechniqueChoice {
  std::string technique;
  ChoiceMode mode = ChoiceMode::exploit;
  double predicted_log_speedup = 0.0;  // the prediction's expected_log_speedup
  double uncertainty = 0.0;            // the prediction's uncertainty (log points)
  double weight = 0.0;                 // probability of this technique within its mode's draw
};

// Considers only predictions whose technique is in `applicable` and not in `exclude`.
// With probability explore_share (one uniform draw, always taken) picks uniformly among
// those untried here (attempts_here == 0: evidence from other states does not count), if any.
// Otherwise exploits: each of `draws` samples draws every technique's gain from
// Normal(expected_log_speedup, uncertainty) and credits the largest (ties to the better expected
// gain, then the technique id); the top_k by credit share are drawn from with those shares,
// renormalised. nullopt when no prediction is left. Deterministic for a given RandomSource state.
std::optional<TechniqueChoice> choose_technique(const std::vector<Prediction>& predictions,
                                                const std::set<std::string>& applicable,
                                                const std::set<std::string>& exclude,
                                                const ChoiceOptions& options, RandomSource& random);

// "chose vectorized_access (predicted +4.1% ± 2.0%, exploit, weight 0.62)"; the gain and
// its spread are exp(log) - 1 in percent.
std::string describe_choice(const TechniqueChoice& choice);

}  // namespace kblaster
