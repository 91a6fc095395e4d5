// The paper's policy: a language model applies the technique the KB chose (DESIGN.md,
// "Knowledge Base and MAIC-RL", step 3), repairs what does not compile, reviews whether a
// candidate still computes the whole function, and writes each measured step's lesson (the
// textual gradient). Everything it asks goes through the LlmBackend passed in; every call's
// tokens go into the TokenLedger.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/kernel_spec.h"
#include "eval/candidate.h"
#include "kb/catalogue.h"
#include "llm/llm_backend.h"
#include "llm/prompt_set.h"
#include "llm/review_verdict.h"
#include "llm/token_ledger.h"
#include "profile/perf_state.h"

namespace kblaster {

struct LlmPolicyOptions {
  double temperature = 0.2;
  int max_tokens = 4096;
  int repair_attempts = 3;  // compile errors sent back per candidate
  Clock* clock = nullptr;   // when set, each call's start and end go into calls(); not owned
};

// The tokens of one search step's calls (apply, repairs, review, gap), which other threads
// make one after another. Thread-safe.
class StepTokens {
 public:
  void add(const TokenUsage& usage);
  TokenUsage total() const;

 private:
  mutable std::mutex mutex_;
  TokenUsage total_;
};

// One call to the model, for the search's timeline: seconds on the policy's clock, from when it
// was asked (a wait for a free slot included) to its answer.
struct ModelCall {
  std::string kernel, purpose;
  double start_s = 0, end_s = 0;
  double answer_s = 0;  // the backend's own time for it (LlmAnswer::seconds); a failed call's whole
};

// A child the model proposed, or why there is none ("the answer held no code block", "the
// answer changes the launcher's signature: …", or the call's failure).
struct LlmChild {
  std::optional<Candidate> child;
  std::string why_not;
};

// What a step tells the model besides the parent.
struct LlmStepContext {
  const KernelSpec* spec = nullptr;
  const PerfState* state = nullptr;
  std::string technique;
  std::vector<std::string> lessons;         // the KB's for (state, technique), newest last
  std::vector<std::string> prior_failures;  // this rollout's failed steps, one line each
  std::shared_ptr<StepTokens> tokens;       // where the step's calls add their tokens; may be null
  // When above 0: the search's time limit, in seconds on the policy's clock. No call starts
  // after it, and each call's timeouts are cut to the time left (LlmRequest::time_limit_s).
  // Needs LlmPolicyOptions::clock.
  double deadline_s = 0;
};

// Thread-safe when its backend is (a BackendPool): the search keeps several calls in flight.
class LlmPolicy {
 public:
  // `model`, `catalogue` and `ledger` must outlive the policy.
  LlmPolicy(LlmBackend& model, PromptSet prompts, const Catalogue& catalogue, TokenLedger& ledger,
            LlmPolicyOptions options)
      : model_(model),
        prompts_(std::move(prompts)),
        catalogue_(catalogue),
        ledger_(ledger),
        options_(options) {}

  // The child the model writes for `context.technique` on `parent`: its answer's code
  // (extract_code), refused when it changes the launcher's signature. A remote failure of the
  // call, like an answer without code, is a why_not, not an Error; Errors are a prompt that
  // does not render and a store that cannot be written.
  Result<LlmChild> apply(const Candidate& parent, const LlmStepContext& context);
  // A new version of `failed`, which did not compile with `compile_errors`.
  Result<LlmChild> repair(const Candidate& failed, const std::string& compile_errors,
                          const LlmStepContext& context);
  // Whether `child` still computes what `parent` does; a failed call is an unreadable verdict.
  Result<ReviewVerdict> review(const Candidate& parent, const Candidate& child,
                               const LlmStepContext& context);
  // The lesson of a measured step: the model's gap analysis of `predicted` against `observed`
  // (percent gains) with what the profile says changed (`profile_delta`), bounded
  // (lesson_text); "" when the call failed or said nothing.
  Result<std::string> lesson(const Candidate& parent, const Candidate& child,
                             const LlmStepContext& context, const std::string& predicted,
                             const std::string& observed, const std::string& profile_delta);

  // The techniques of the catalogue whose applier is the model.
  std::vector<std::string> techniques() const;
  int repair_attempts() const { return options_.repair_attempts; }
  const TokenLedger& ledger() const { return ledger_; }
  // The calls made so far, in the order they ended; empty without options.clock.
  std::vector<ModelCall> calls() const;
  // "openai", "anthropic", "command" or "replay": who answers, for progress lines.
  std::string_view backend_name() const { return model_.name(); }

 private:
  Result<std::optional<LlmAnswer>> ask(PromptKind kind, const PromptValues& values,
                                       const LlmStepContext& context, std::string& failure);
  Result<LlmChild> child_of(PromptKind kind, const Candidate& from, const PromptValues& values,
                            const LlmStepContext& context);
  PromptValues common_values(const Candidate& parent, const LlmStepContext& context) const;

  LlmBackend& model_;
  PromptSet prompts_;
  const Catalogue& catalogue_;
  TokenLedger& ledger_;
  LlmPolicyOptions options_;
  mutable std::mutex calls_mutex_;
  std::vector<ModelCall> calls_;
};

}  // namespace kblaster
