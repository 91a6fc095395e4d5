// One search step applied by the model (search/llm_policy.h): its answer checked by the static
// soft-verification rules, built, verified and timed against its parent while the model
// reviews it, and sent back for repair while it does not compile. The step goes a phase at a
// time, each model call on a thread of its own, so that the search measures other candidates
// on the GPU while this one waits for the model.
#pragma once

#include <future>
#include <set>

#include "eval/evaluator.h"
#include "search/llm_policy.h"

namespace kblaster {

// The step's child (the parent with the technique on its path when the model gave none) and
// its evaluation: compile_failure for no usable answer (why in `detail`), verify_failure for a
// candidate the static rules or the review reject, else the evaluator's.
struct LlmStep {
  Candidate child;
  Evaluation evaluation;
  int repairs = 0;  // compile errors sent back
  // The search's time limit passed before the step was measured (`detail` says while the
  // model did what): not a step of the search, and nothing is learnt from it.
  bool cut = false;
};

// How the review of a step recorded before its review came back ended.
struct ReviewSettled {
  enum class Verdict { accepted, rejected, unreviewed } verdict = Verdict::accepted;
  std::string reason;  // rejected: the review's; unreviewed: why there was none
};

class ModelStep {
 public:
  // Asks `llm` to apply context.technique to `parent`, on a thread of its own. `llm` and
  // `clock` must outlive the step, and context.spec and context.state the step's end. When
  // context.deadline_s is set (on `clock`), a call that ends after it cuts the step.
  ModelStep(LlmPolicy& llm, Candidate parent, LlmStepContext context, Clock& clock);
  ModelStep(const ModelStep&) = delete;  // its calls in flight refer to it
  ModelStep& operator=(const ModelStep&) = delete;

  // Goes on by one phase, waiting for the model at most once:
  //  - the answer came: a child that passes the static rules is built ahead
  //    (Evaluator::build_ahead) and sent for review;
  //  - next, the child is evaluated without waiting for the review (it is added to `seen`,
  //    every candidate built so far, or refused as built before). A compile error goes back
  //    for repair. A faster child waits for the review before the step is done, since only a
  //    reviewed child may become a parent; any other is done with its review pending
  //    (review_pending(): the search records it and settles the review later);
  //  - the review of a faster child came: accepted, or the step is rejected.
  // Once the time limit has passed, nothing more is asked or evaluated: the step is cut.
  // Errors are the evaluator's and the policy's (a prompt that does not render).
  Status advance(Evaluator& evaluator, std::set<std::string>& seen);
  // True when result() is final, or final but for a pending review (review_pending()).
  bool done() const { return phase_ == Phase::done || phase_ == Phase::review_pending; }
  // Done, with the review of its child still to come: settle_review() says how it ended.
  bool review_pending() const { return phase_ == Phase::review_pending; }
  // Waits for the pending review. A review that could not be read is a rejection, unless the
  // time limit passed before it came (unreviewed). Errors are the policy's.
  Result<ReviewSettled> settle_review();
  // True when the last advance sent a compile error back (result() holds it and the count).
  bool repairing() const { return phase_ == Phase::repairing; }
  // The step's result, once done().
  const LlmStep& result() const { return step_; }
  const LlmStepContext& context() const { return context_; }
  const Candidate& parent() const { return parent_; }

 private:
  enum class Phase { applying, measuring, repairing, reviewing, review_pending, done };
  // A child from the model (apply or repair): refused, or built ahead and sent for review.
  void check(LlmChild made, Evaluator& evaluator, const std::set<std::string>& seen);
  Status measure(Evaluator& evaluator, std::set<std::string>& seen);
  void finish(StepOutcome outcome, std::string detail);
  bool out_of_time();
  // Ends the step as cut when the time limit has passed; true then. `doing`: what the model
  // was asked ("applied it", "reviewed it", "repaired it").
  bool cut_by_time_limit(const char* doing);

  LlmPolicy& llm_;
  Clock& clock_;
  Candidate parent_;
  LlmStepContext context_;
  LlmStep step_;
  Phase phase_ = Phase::applying;
  std::future<Result<LlmChild>> child_call_;  // apply or repair
  // The child's review. A repaired child's replaces it; the one before has ended by then,
  // since it was asked before the repair was.
  std::future<Result<ReviewVerdict>> review_call_;
};

}  // namespace kblaster
