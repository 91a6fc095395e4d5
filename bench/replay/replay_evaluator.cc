#include "replay_evaluator.h"

#include <cmath>
#include <cstdio>

namespace kblaster {

double ReplayEvaluator::log_time(const std::string& key) const {
  if (const auto* r = recorded_.find(key); r && r->timings) return r->log_time();
  const auto it = replayed_.find(key);
  return it == replayed_.end() ? 0.0 : it->second;
}

Result<Evaluation> ReplayEvaluator::evaluate(const Candidate& parent, const Candidate& child) {
  clock_.advance(recorded_.seconds_per_evaluation());
  const std::string parent_key = candidate_key(parent), child_key = candidate_key(child);
  parent_of_.emplace(child_key, parent_key);
  Evaluation e;
  const RecordedCandidate* r = recorded_.find(child_key);
  if (r && (r->timings || r->failures)) {
    ++coverage_.recorded;
    if (r->failures > r->timings) {
      e.outcome = r->failure;
      e.detail = "replayed: recorded " + std::string(outcome_name(r->failure));
      return e;
    }
  }
  double log_ratio = 0.0;  // log(t_child / t_parent)
  const std::vector<double>* others = nullptr;
  if (r && r->timings) {
    log_ratio = r->log_time() - log_time(parent_key);
  } else if (!child.changes.empty() && !child.path.empty() &&
             (others = recorded_.change_log_ratios(child.path.back(), child.changes.back()))) {
    ++coverage_.other_parent;
    for (double x : *others) log_ratio += x / static_cast<double>(others->size());
    replayed_[child_key] = log_time(parent_key) + log_ratio;
  } else {
    ++coverage_.unknown;
    replayed_[child_key] = log_time(parent_key);
  }
  log_ratio += std::normal_distribution<double>(0.0, options_.noise_sd)(random_);
  e.ratio = e.ci_low = e.ci_high = std::exp(log_ratio);
  e.log_speedup = -log_ratio;
  e.outcome = e.ratio <= 1.0 - options_.min_effect   ? StepOutcome::faster
              : e.ratio >= 1.0 + options_.min_effect ? StepOutcome::slower
                                                     : StepOutcome::same;
  char buf[96];
  std::snprintf(buf, sizeof buf, "replayed: B/A %.4f", e.ratio);
  e.detail = buf;
  return e;
}

Result<PerfState> ReplayEvaluator::state_of(const Candidate& candidate) {
  std::string key = candidate_key(candidate), state = recorded_.baseline_state();
  std::optional<LaunchShape> launch;  // only the candidate's own: a shape changes with the block
  if (const auto* r = recorded_.find(key)) launch = r->launch;
  for (int hops = 0; hops < 1000; ++hops) {
    if (const auto* r = recorded_.find(key); r && !r->state.empty()) {
      state = r->state;
      break;
    }
    const auto up = parent_of_.find(key);
    if (up == parent_of_.end()) break;
    key = up->second;
  }
  PerfState s;
  s.key = state;
  s.bottleneck = state.substr(0, state.find('.'));
  s.explanation = "replayed from the H200's recorded state";
  if (launch) s.launch = *launch;
  return s;
}

}  // namespace kblaster
