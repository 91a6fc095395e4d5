// The lesson of one search step without an LLM: a statistical summary of predicted against
// observed gain, the "textual gradient" of DESIGN.md ("Knowledge Base and MAIC-RL", step 4).
#pragma once

#include <cstdint>
#include <string_view>

#include "kb/prediction.h"
#include "kb/records.h"

namespace kblaster {

// A kb Lesson (id left empty, created_at = now) for technique applied in state. Gains are
// exp(log) - 1 in percent; the gap is predicted minus observed percent, in points; the sd is
// that of the log speedups, times 100. `observed_log_speedup` is read only when
// is_measured(outcome); `after` is the technique's stats including this step. E.g.
//   "memory.dram_saturated / vectorized_access: predicted +10.5% (prior, 0 measured),
//    observed +3.2% (faster); overestimated by 7.3 pts. Now 4 attempts, 3 measured,
//    mean +2.9%, sd 1.1%."
//   "... observed: compile_failure; 2 of 4 attempts failed to compile. Now 4 attempts,
//    2 measured, mean +2.9%, sd 1.1%."
// The sd is left out below 2 measured steps, the mean below 1.
Lesson statistical_lesson(std::string_view state, std::string_view technique,
                          const Prediction& predicted, StepOutcome outcome,
                          double observed_log_speedup, const TechniqueStats& after,
                          std::int64_t now);

}  // namespace kblaster
