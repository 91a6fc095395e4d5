// One search step applied by the model (search/llm_policy.h): its answer checked by the static
// soft-verification rules and the model's review before it is built, then built, verified and
// timed against its parent, and sent back for repair while it does not compile. The step goes
// a phase at a time, each model call on a thread of its own, so that the search measures
// other candidates on the GPU while this one waits for the model.
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

class ModelStep {
 public:
  // Asks `llm` to apply context.technique to `parent`, on a thread of its own. `llm` and
  // `clock` must outlive the step, and context.spec and context.state the step's end. When
  // context.deadline_s is set (on `clock`), a call that ends after it cuts the step.
  ModelStep(LlmPolicy& llm, Candidate parent, LlmStepContext context, Clock& clock);
  ModelStep(const ModelStep&) = delete;  // its calls in flight refer to it
  ModelStep& operator=(const ModelStep&) = delete;

  // Waits for the call in flight, then goes on until the next call is asked or the step is
  // done: a child that passes the checks is built ahead (Evaluator::build_ahead) while the
  // model reviews it, and evaluated once the review accepts it. `seen` holds every candidate
  // built so far; a child the review accepts is added, or refused as built before when another
  // step evaluated the same code meanwhile. Once the time limit has passed, nothing more is
  // asked or evaluated: the step is done and cut.
  // Errors are the evaluator's and the policy's (a prompt that does not render).
  Status advance(Evaluator& evaluator, std::set<std::string>& seen);
  bool done() const { return phase_ == Phase::done; }
  // True when the last advance sent a compile error back (result() holds it and the count).
  bool repairing() const { return phase_ == Phase::repairing; }
  // The step's result, once done().
  const LlmStep& result() const { return step_; }
  const LlmStepContext& context() const { return context_; }

 private:
  enum class Phase { applying, reviewing, repairing, done };
  // A child from the model (apply or repair): refused, or built ahead and sent for review.
  void check(LlmChild made, Evaluator& evaluator, const std::set<std::string>& seen);
  void finish(StepOutcome outcome, std::string detail);
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
  std::future<Result<ReviewVerdict>> review_call_;
};

}  // namespace kblaster
