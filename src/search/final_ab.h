// The speedup an optimize result claims: a fresh interleaved A/B of the baseline against a
// candidate, never the product of the search's steps.
#pragma once

#include <nlohmann/json.hpp>

#include "eval/gpu_evaluator.h"

namespace kblaster {

struct FinalAb {
  nlohmann::json final_ab;       // the A/B with its samples (eval/compare_step.h's to_json)
  nlohmann::json speedup;        // {value, ci_low, ci_high, verdict, reason}; value null
                                 // when the timing was rejected
  bool verified_faster = false;  // timed and FASTER
};

// The A/B of `baseline` against `candidate` (both verified before) as a result records it.
// Errors are the probe's.
Result<FinalAb> final_ab(ResultProbe& probe, const Candidate& baseline, const Candidate& candidate);

}  // namespace kblaster
