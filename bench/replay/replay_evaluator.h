// An Evaluator that answers from what the H200 recorded (KernelOutcomes) instead of
// building and timing: a model of the GPU for replaying searches offline, not a
// measurement. Its Clock advances by the kernel's recorded seconds per evaluation.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>

#include "core/clock.h"
#include "recorded_outcomes.h"
#include "eval/evaluator.h"

namespace kblaster {

// Simulated time: advances only when told.
class SimulatedClock final : public Clock {
 public:
  double now_seconds() override { return now_; }
  void advance(double seconds) { now_ += seconds; }

 private:
  double now_ = 0.0;
};

// Where each evaluation's answer came from.
struct ReplayCoverage {
  int recorded = 0;      // the child's content key was recorded
  int other_parent = 0;  // its (technique, change) was recorded from another parent
  int unknown = 0;       // neither: answered SAME, ratio 1
};

struct ReplayOptions {
  double noise_sd = 0.005;   // lognormal noise on each replayed ratio
  double min_effect = 0.02;  // VerdictCriteria::min_effect
  std::uint64_t seed = 1;    // of the noise
};

// Reads `recorded` and advances `clock`; both must outlive it. Not thread-safe.
class ReplayEvaluator final : public Evaluator {
 public:
  ReplayEvaluator(const KernelOutcomes& recorded, SimulatedClock& clock, ReplayOptions options)
      : recorded_(recorded), clock_(clock), options_(options), random_(options.seed) {}

  // Recorded failure if the child's key failed more often than it was timed; else
  // ratio t(child)/t(parent) from the table (or the geometric mean of the change's
  // ratios from other parents, or 1), with noise, judged FASTER at <= 1 - min_effect,
  // SLOWER at >= 1 + min_effect, SAME between (significance is assumed).
  Result<Evaluation> evaluate(const Candidate& parent, const Candidate& child) override;
  // The recorded state of the candidate's key, else of its nearest recorded
  // ancestor in this replay, else the baseline's. Its launch shape is the one ncu
  // recorded for this very candidate, else unset (launch geometry then prefers
  // neighbours and leaves no size out).
  Result<PerfState> state_of(const Candidate& candidate) override;

  const ReplayCoverage& coverage() const { return coverage_; }

 private:
  double log_time(const std::string& key) const;  // log(t / t_baseline), 0 if unknown

  const KernelOutcomes& recorded_;
  SimulatedClock& clock_;
  ReplayOptions options_;
  std::mt19937_64 random_;
  ReplayCoverage coverage_;
  std::map<std::string, double> replayed_;  // log time of children the table lacks
  std::map<std::string, std::string> parent_of_;
};

}  // namespace kblaster
