// Plain records the Knowledge Base stores (DESIGN.md, "Knowledge Base and MAIC-RL").
// Times are Unix seconds supplied by the caller, so the store never reads a clock.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/step_outcome.h"

namespace kblaster {

// One step: technique `action` applied in performance state `state`.
struct TrajectoryStep {
  std::int64_t step = 0;  // 0-based position in the trajectory
  std::string state;
  std::string action;  // technique id
  StepOutcome outcome = StepOutcome::compile_failure;
  // The log speedup the step kept over its parent: a verified FASTER child's log
  // speedup, else 0 (the search discards a slower or equal child). The stats sum it.
  // KBs written before this rule (commit b2b1844) hold raw, possibly negative, log
  // speedups for slower children; merged or cached ones mix the two.
  double reward = 0.0;
  std::int64_t tokens = 0;
};

// A whole search path for one task on one GPU arch. `id` must be unique and
// stable (a content hash or UUID), so merging the same trajectory twice is a no-op.
struct Trajectory {
  std::string id;
  std::string task;
  std::string arch;  // e.g. "sm_90"
  std::int64_t created_at = 0;
  std::vector<TrajectoryStep> steps;
};

// Statistics per (state, technique, arch). The log-speedup moments are kept as
// a sum and a sum of squares: merging is addition, exact and order-free.
struct TechniqueStats {
  std::int64_t attempts = 0;
  std::int64_t compile_failures = 0;
  std::int64_t verify_failures = 0;
  std::int64_t slower = 0;
  std::int64_t faster = 0;
  std::int64_t measured = 0;  // steps with a log speedup (slower, same or faster)
  double sum_log_speedup = 0.0;
  double sum_sq_log_speedup = 0.0;
  std::int64_t last_seen = 0;  // newest trajectory's created_at; 0 if never

  double mean_log_speedup() const { return measured ? sum_log_speedup / measured : 0.0; }
  // Sample variance; 0 with fewer than two measurements.
  double variance_log_speedup() const;
};

// A lesson learned, as text per (state, technique). An empty `id` is derived from
// the content when stored, so the same lesson stored twice is kept once.
struct Lesson {
  std::string id;
  std::string state;
  std::string technique;
  std::string text;
  std::int64_t created_at = 0;
};

// What one kernel of a task last cost a sweep on one arch: the seconds its run and search
// took, so a sweep's shards can balance by it (eval/shard.h).
struct KernelCost {
  std::string task;
  std::string arch;
  double seconds = 0.0;
  std::int64_t recorded_at = 0;  // Unix seconds
};

// The best verified kernel of a task.
struct BestKernel {
  std::string task;
  std::string source;
  std::string result_json;  // the verification and measurement result
  double speedup = 0.0;     // against the task's baseline
};

}  // namespace kblaster
