// What the search needs from the outside world, as an interface so the loop is
// tested without a GPU: build, verify and time a child against its parent, and
// profile a candidate into a performance state.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/step_outcome.h"
#include "eval/candidate.h"
#include "profile/perf_state.h"

namespace kblaster {

struct Evaluation {
  StepOutcome outcome = StepOutcome::compile_failure;
  double log_speedup = 0.0;  // log(parent time / child time) when measured, else 0
  double ratio = 0.0;        // child / parent median time, with its CI, when measured
  double ci_low = 0.0, ci_high = 0.0;
  std::string detail;  // the compile error, failed check or verdict line
};

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Builds `child`, verifies it against the kernel's reference at every size,
  // and, when it passes, times it against `parent` (interleaved A/B). A compile
  // or verification failure, a hang or a crash is an Evaluation, not an Error;
  // Errors are for the machinery (no nvcc, the harness cannot start).
  virtual Result<Evaluation> evaluate(const Candidate& parent, const Candidate& child) = 0;
  // The performance state of `candidate` (profiled where it can be; a
  // timing-only state such as "latency.no_dominant_bottleneck" with its reason
  // otherwise).
  virtual Result<PerfState> state_of(const Candidate& candidate) = 0;
  // Candidates the search may evaluate next: an evaluator may start building
  // them in the background while the GPU works. A hint; the default ignores it.
  virtual void prefetch(const std::vector<Candidate>& likely_next) { (void)likely_next; }
  // A candidate the search evaluates next unless a check refuses it first (a model's child
  // while the model reviews it): an evaluator may start building it now, however many
  // prefetched builds wait. The default ignores it.
  virtual void build_ahead(const Candidate& next) { (void)next; }
};

}  // namespace kblaster
