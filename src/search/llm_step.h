// One search step applied by the model (search/llm_policy.h): its answer checked by the static
// soft-verification rules and the model's review before it is built, then built, verified and
// timed against its parent, and sent back for repair while it does not compile.
#pragma once

#include <ostream>
#include <set>

#include "eval/evaluator.h"
#include "search/llm_policy.h"

namespace kblaster {

// The step's child (the parent with the technique on its path when the model gave none) and
// its evaluation: compile_failure for no usable answer (why in `detail`), verify_failure for a
// candidate the static rules or the review reject, else the evaluator's. `seen` holds every
// candidate built so far; the child is added.
struct LlmStep {
  Candidate child;
  Evaluation evaluation;
  int repairs = 0;  // compile errors sent back
};

// Errors are the evaluator's and the policy's (a prompt that does not render).
Result<LlmStep> run_llm_step(LlmPolicy& llm, Evaluator& evaluator, const Candidate& parent,
                             const LlmStepContext& context, std::set<std::string>& seen,
                             std::ostream& progress);

}  // namespace kblaster
