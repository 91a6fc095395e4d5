// What the H200 recorded for one kernel, keyed by candidate content: each step of a
// `kblaster optimize` result.json, replayed through the real appliers (propose) to
// rebuild its parent and child Candidates. The input of a model, not a measurement.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel_spec.h"
#include "eval/candidate.h"
#include "kb/records.h"
#include "profile/perf_state.h"
#include "search/technique_appliers.h"

namespace kblaster {

// A canonical content key: source, sorted extra flags, arch, macros, launcher args.
// Unlike Candidate::fingerprint, the order in which flags were added does not matter.
std::string candidate_key(const Candidate& candidate);

// `change` without a trailing " (...)" (an applier's explanation); unchanged without one.
std::string strip_parenthetical(std::string_view change);

// One candidate as recorded: its time relative to the baseline (mean of the log over
// recordings), its failure if it failed, and the state recorded when it was a parent.
struct RecordedCandidate {
  double log_time_sum = 0.0;  // sum of log(t / t_baseline)
  int timings = 0;
  int failures = 0;
  StepOutcome failure = StepOutcome::compile_failure;
  std::string state;
  // The launch ncu profiled (its `profiles/<fingerprint>.csv` beside the result.json)
  // when it was a parent; unset when no such file was kept or it names several kernels.
  std::optional<LaunchShape> launch;
  double log_time() const { return timings ? log_time_sum / timings : 0.0; }
};

// One run's trace, for the fidelity check: best speedup after each evaluation.
struct RecordedRun {
  std::string file;
  bool cold = false;  // recorded under a cold_<kernel>/ folder
  std::vector<double> best_speedup_after;
};

struct ReconstructionCounts {
  int steps = 0, exact = 0, loose = 0;       // loose: matched after strip_parenthetical
  int parents = 0, parents_with_launch = 0;  // steps' parents, and those with a profiled launch
  int unmatched = 0;                         // no child of `technique` has the recorded change
  int skipped = 0;  // after an unmatched FASTER step, whose child is unknown
  std::vector<std::string> unmatched_examples;  // "technique: change", the first few
};

// The recordings of one kernel. Not thread-safe.
class KernelOutcomes {
 public:
  KernelOutcomes(const KernelSpec& spec, std::string baseline_source, TargetGpu gpu)
      : spec_(&spec), baseline_source_(std::move(baseline_source)), gpu_(std::move(gpu)) {}

  // Adds one result.json (already parsed). Steps whose change no child of the real
  // applier reproduces are counted, not fatal; after an unmatched FASTER step the
  // rest of the run is skipped (its later parents are unknown).
  void add_run(const nlohmann::json& result, const std::string& file);

  const KernelSpec& spec() const { return *spec_; }
  Candidate baseline() const {
    Candidate c;
    c.source = baseline_source_;
    return c;
  }
  const RecordedCandidate* find(const std::string& key) const;
  // log(t_child / t_parent) of every timed recording of (technique, change), any parent.
  const std::vector<double>* change_log_ratios(const std::string& technique,
                                               const std::string& change) const;
  const std::string& baseline_state() const { return baseline_state_; }
  double seconds_per_evaluation() const { return evaluations_ ? seconds_ / evaluations_ : 1.0; }
  const std::vector<RecordedRun>& runs() const { return runs_; }
  const ReconstructionCounts& counts() const { return counts_; }

 private:
  RecordedCandidate& at(const Candidate& c) { return table_[candidate_key(c)]; }

  const KernelSpec* spec_;
  std::string baseline_source_;
  TargetGpu gpu_;
  std::string baseline_state_;
  double seconds_ = 0.0;
  int evaluations_ = 0;
  std::map<std::string, RecordedCandidate> table_;
  std::map<std::string, std::vector<double>> changes_;  // technique + '\x1f' + change
  std::vector<RecordedRun> runs_;
  ReconstructionCounts counts_;
};

}  // namespace kblaster
