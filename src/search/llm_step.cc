#include "search/llm_step.h"

#include "core/text_join.h"
#include "search/soft_verification.h"

namespace kblaster {

ModelStep::ModelStep(LlmPolicy& llm, Candidate parent, LlmStepContext context, Clock& clock)
    : llm_(llm), clock_(clock), parent_(std::move(parent)), context_(std::move(context)) {
  step_.child = parent_;
  step_.child.path.push_back(context_.technique);
  step_.child.changes.push_back("asked " + std::string(llm_.backend_name()) + " to apply " +
                                context_.technique);
  child_call_ = std::async(std::launch::async, [this] { return llm_.apply(parent_, context_); });
}

void ModelStep::finish(StepOutcome outcome, std::string detail) {
  step_.evaluation = Evaluation{};
  step_.evaluation.outcome = outcome;
  step_.evaluation.detail = std::move(detail);
  phase_ = Phase::done;
}

bool ModelStep::out_of_time() {
  return context_.deadline_s > 0 && clock_.now_seconds() >= context_.deadline_s;
}

bool ModelStep::cut_by_time_limit(const char* doing) {
  if (!out_of_time()) return false;
  finish(StepOutcome::compile_failure,
         std::string("the search's time limit passed while the model ") + doing);
  step_.cut = true;
  return true;
}

void ModelStep::check(LlmChild made, Evaluator& evaluator, const std::set<std::string>& seen) {
  step_.child = std::move(*made.child);
  if (seen.contains(step_.child.fingerprint()))
    return finish(StepOutcome::compile_failure,
                  "the answer is the parent or a candidate built before");
  if (const auto findings = soft_verification_findings(parent_.source, step_.child.source);
      !findings.empty())
    return finish(StepOutcome::verify_failure, "soft verification: " + join_texts(findings));
  evaluator.build_ahead(step_.child);
  review_call_ = std::async(std::launch::async, [this, child = step_.child] {
    return llm_.review(parent_, child, context_);
  });
  phase_ = Phase::measuring;
}

Status ModelStep::measure(Evaluator& evaluator, std::set<std::string>& seen) {
  if (out_of_time()) {  // the review is still asked for: cut it as the model's
    auto verdict = review_call_.get();
    if (!verdict) return verdict.error();
    cut_by_time_limit("reviewed it");
    return Ok{};
  }
  // Another rollout's model may have written the same code meanwhile.
  if (!seen.insert(step_.child.fingerprint()).second) {
    step_.evaluation = {};
    step_.evaluation.outcome = StepOutcome::compile_failure;
    step_.evaluation.detail = "the answer is a candidate built before";
    phase_ = Phase::review_pending;
    return Ok{};
  }
  auto eval = evaluator.evaluate(parent_, step_.child);
  if (!eval) return eval.error();
  step_.evaluation = std::move(*eval);
  if (step_.evaluation.outcome == StepOutcome::compile_failure &&
      step_.repairs < llm_.repair_attempts()) {
    ++step_.repairs;
    child_call_ = std::async(std::launch::async,
                             [this, failed = step_.child, errors = step_.evaluation.detail] {
                               return llm_.repair(failed, errors, context_);
                             });
    phase_ = Phase::repairing;
    return Ok{};
  }
  phase_ =
      step_.evaluation.outcome == StepOutcome::faster ? Phase::reviewing : Phase::review_pending;
  return Ok{};
}

Result<ReviewSettled> ModelStep::settle_review() {
  auto verdict = review_call_.get();
  if (!verdict) return verdict.error();
  phase_ = Phase::done;
  if (verdict->accepts()) return ReviewSettled{};
  if (verdict->answer == ReviewAnswer::unreadable && out_of_time())
    return ReviewSettled{ReviewSettled::Verdict::unreviewed,
                         "not reviewed: the search's time limit passed first"};
  return ReviewSettled{ReviewSettled::Verdict::rejected, verdict->reason};
}

Status ModelStep::advance(Evaluator& evaluator, std::set<std::string>& seen) {
  switch (phase_) {
    case Phase::applying: {
      auto made = child_call_.get();
      if (!made) return made.error();
      if (cut_by_time_limit("applied it")) return Ok{};
      if (!made->child) {
        finish(StepOutcome::compile_failure, made->why_not);
        return Ok{};
      }
      check(std::move(*made), evaluator, seen);
      return Ok{};
    }
    case Phase::measuring:
      return measure(evaluator, seen);
    case Phase::repairing: {
      auto fixed = child_call_.get();
      if (!fixed) return fixed.error();
      if (cut_by_time_limit("repaired it")) return Ok{};
      if (!fixed->child) {
        step_.evaluation.detail +=
            "; repair " + std::to_string(step_.repairs) + ": " + fixed->why_not;
        phase_ = Phase::done;
        return Ok{};
      }
      check(std::move(*fixed), evaluator, seen);
      return Ok{};
    }
    case Phase::reviewing: {
      auto verdict = review_call_.get();
      if (!verdict) return verdict.error();
      if (cut_by_time_limit("reviewed it")) return Ok{};
      if (!verdict->accepts())
        finish(StepOutcome::verify_failure,
               "review: " + verdict->reason + " (measured before the review: " +
                   first_line(step_.evaluation.detail) + "; discarded)");
      phase_ = Phase::done;
      return Ok{};
    }
    case Phase::review_pending:
    case Phase::done:
      return Ok{};
  }
  return Ok{};
}

}  // namespace kblaster
