// The MAIC-RL search for one kernel (DESIGN.md, "Knowledge Base and MAIC-RL"):
// rollouts of profile -> state -> predicted gains -> weighted choice -> apply ->
// build, verify, measure against the parent -> reward and KB update, within a
// budget. Side effects go through the Evaluator, the Store and the Clock.
#pragma once

#include <cstdint>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/kernel_spec.h"
#include "core/status.h"
#include "eval/candidate.h"
#include "eval/evaluator.h"
#include "kb/catalogue.h"
#include "kb/store.h"
#include "search/llm_policy.h"
#include "search/search_budget.h"
#include "search/technique_appliers.h"
#include "search/technique_choice.h"

namespace kblaster {

struct SearchOptions {
  SearchBudget budget;
  ChoiceOptions choice;
  std::uint64_t seed = 1;
  TargetGpu gpu;
  std::string task;           // the KB's task name: "<repo>/<kernel>"
  std::int64_t now_unix = 0;  // for KB records
  // Children handed to Evaluator::prefetch per step (build_ahead_list: one per technique the
  // next step may choose); the evaluator starts no more than its workers allow.
  int prefetch = 32;
  // Rollouts searched at once. Each starts from the best so far when it starts; they take
  // turns in a fixed round, so while the GPU measures one rollout's child the model's calls
  // for the others are in flight. 1: one rollout after another (the embedded policy's way).
  int lanes = 1;
  bool source_only = false;  // only techniques for which rewrites_source_only() holds
  // The model (search/llm_policy.h): when set, the catalogue's LLM techniques join the
  // embedded ones, each applied by the model, and measured steps get the model's lessons.
  // Its caps (TokenLedger::cap_reached) stop the search. Not owned.
  LlmPolicy* llm = nullptr;
  // When not empty, the only techniques the search may choose (--techniques).
  std::set<std::string> only_techniques;
};

// One evaluated step, as the report and the JSON result show it.
struct SearchStep {
  int rollout = 0, depth = 0;
  std::string state, technique, change;
  ChoiceMode mode = ChoiceMode::exploit;
  double predicted_log_speedup = 0.0;
  Evaluation evaluation;
  double best_log_speedup_after = 0.0;  // against the baseline
  std::string candidate;     // the child's Candidate::fingerprint, which names its tree and profile
  double elapsed_s = 0.0;    // seconds from the search's start to the end of this evaluation
  std::string lesson;        // the lesson the KB recorded for it, when its rollout ended
  bool by_model = false;     // applied by the LLM policy, not an embedded technique
  int repairs = 0;           // compile errors the model was asked to repair
  TokenUsage tokens;         // the model's tokens for this step (apply, repair, review, gap)
  std::string model_lesson;  // the model's gap analysis; "" without one
};

struct SearchResult {
  Candidate baseline;
  Candidate best;                 // the baseline itself when nothing verified was faster
  double best_log_speedup = 0.0;  // against the baseline; sum of verified step gains
  std::string baseline_state, best_state;
  std::vector<SearchStep> steps;
  std::vector<double> best_so_far;  // per evaluation, for the ablation's evaluations-to-95%
  std::string stop_reason;
  std::vector<std::string> soft_verification;  // findings against the best; empty = passed
  std::optional<TokenTotals> llm;              // the model's tokens for this kernel, with one
  double started_s = 0;                        // the search's start on its Clock
  std::vector<ModelCall> model_calls;          // this search's calls to the model, as they ended
  int model_slots = 0;                         // calls to the model at once (SearchOptions::lanes)
};

// Searches from `baseline`. Each rollout starts from the best so far; a step that
// is FASTER (verified and significantly faster) becomes the parent of the next. With
// options.lanes > 1, that many rollouts are open at once, in a fixed round of turns: the same
// seed and answers take the same steps in the same order.
// No candidate is evaluated twice (by Candidate::fingerprint), the baseline included.
// Every step, failures included, is recorded in `kb` as part of its rollout's
// trajectory, with a statistical lesson. Progress lines go to `progress`.
// Errors are the evaluator's, the KB's, or a profile that fails.
Result<SearchResult> run_search(const Candidate& baseline, const KernelSpec& spec,
                                Evaluator& evaluator, Store& kb, const Catalogue& catalogue,
                                const SearchOptions& options, Clock& clock, std::ostream& progress);

// The children run_search asks the evaluator to build first, before the baseline's profile is
// in: every child of every technique it may choose, each technique's lead first, at most
// options.prefetch. Handed to Evaluator::prefetch before the search starts (while the kernel
// before it finishes), they are built, or building, when it asks.
std::vector<Candidate> first_children(const Candidate& baseline, const KernelSpec& spec,
                                      const SearchOptions& options);

}  // namespace kblaster
