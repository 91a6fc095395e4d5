#include "search/llm_step.h"

#include "core/text_join.h"
#include "search/soft_verification.h"

namespace kblaster {
namespace {

Evaluation failed(StepOutcome outcome, std::string detail) {
  Evaluation e;
  e.outcome = outcome;
  e.detail = std::move(detail);
  return e;
}

// Why `child` must not be built: a static soft-verification finding against `parent`, the
// model's review saying no (or nothing readable), or a candidate built before; nullopt when
// it may be.
Result<std::optional<Evaluation>> refused(LlmPolicy& llm, const Candidate& parent,
                                          const Candidate& child, const LlmStepContext& context,
                                          const std::set<std::string>& seen) {
  if (seen.contains(child.fingerprint()))
    return std::optional(failed(StepOutcome::compile_failure,
                                "the answer is the parent or a candidate built before"));
  if (const auto findings = soft_verification_findings(parent.source, child.source);
      !findings.empty())
    return std::optional(
        failed(StepOutcome::verify_failure, "soft verification: " + join_texts(findings)));
  auto verdict = llm.review(parent, child, context);
  if (!verdict) return verdict.error();
  if (!verdict->accepts())
    return std::optional(failed(StepOutcome::verify_failure, "review: " + verdict->reason));
  return std::optional<Evaluation>();
}

}  // namespace

Result<LlmStep> run_llm_step(LlmPolicy& llm, Evaluator& evaluator, const Candidate& parent,
                             const LlmStepContext& context, std::set<std::string>& seen,
                             std::ostream& progress) {
  LlmStep step{parent, {}, 0};
  step.child.path.push_back(context.technique);
  step.child.changes.push_back("asked " + std::string(llm.backend_name()) + " to apply " +
                               context.technique);
  auto made = llm.apply(parent, context);
  if (!made) return made.error();
  if (!made->child) {
    step.evaluation = failed(StepOutcome::compile_failure, made->why_not);
    return step;
  }
  step.child = std::move(*made->child);
  for (;;) {
    auto no = refused(llm, parent, step.child, context, seen);
    if (!no) return no.error();
    if (*no) {
      step.evaluation = std::move(**no);
      return step;
    }
    seen.insert(step.child.fingerprint());
    auto eval = evaluator.evaluate(parent, step.child);
    if (!eval) return eval.error();
    step.evaluation = std::move(*eval);
    if (step.evaluation.outcome != StepOutcome::compile_failure ||
        step.repairs >= llm.repair_attempts())
      return step;
    ++step.repairs;
    progress << "    -> compile_failure: " << first_line(step.evaluation.detail)
             << "; asking for a repair (" << step.repairs << " of " << llm.repair_attempts()
             << ")\n";
    auto fixed = llm.repair(step.child, step.evaluation.detail, context);
    if (!fixed) return fixed.error();
    if (!fixed->child) {
      step.evaluation.detail += "; repair " + std::to_string(step.repairs) + ": " + fixed->why_not;
      return step;
    }
    step.child = std::move(*fixed->child);
  }
}

}  // namespace kblaster
