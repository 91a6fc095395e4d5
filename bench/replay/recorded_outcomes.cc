#include "recorded_outcomes.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/stable_hash.h"
#include "profile/kernel_profile.h"
#include "profile/ncu_csv.h"

namespace kblaster {

std::string candidate_key(const Candidate& c) {
  std::vector<std::string> flags = c.extra_flags;
  std::sort(flags.begin(), flags.end());
  std::string key = c.source;
  const auto field = [&key](char tag, std::string_view text) {
    key.append(1, '\x1f').append(1, tag).append(text);
  };
  field('R', c.arch);
  for (const auto& f : flags) field('F', f);
  for (const auto& [k, v] : c.macros) field('D', k + '=' + v);
  for (const auto& [k, v] : c.launcher_args) field('A', k + '=' + std::to_string(v));
  return stable_hash(key);
}

std::string strip_parenthetical(std::string_view change) {
  if (change.empty() || change.back() != ')') return std::string(change);
  const auto open = change.rfind(" (");
  return std::string(open == std::string_view::npos ? change : change.substr(0, open));
}

namespace {

// The child of `p` whose last change is `change`; else the only one that matches
// after strip_parenthetical (`loose` set); else nullptr.
const Candidate* matching_child(const Proposal& p, const std::string& change, bool& loose) {
  for (const Candidate& c : p.children)
    if (!c.changes.empty() && c.changes.back() == change) return &c;
  const Candidate* found = nullptr;
  for (const Candidate& c : p.children) {
    if (c.changes.empty() || strip_parenthetical(c.changes.back()) != strip_parenthetical(change))
      continue;
    if (found) return nullptr;  // ambiguous
    found = &c;
  }
  loose = found != nullptr;
  return found;
}

// The single kernel launch of `profiles/<fingerprint>.csv` in `dir`, if that file
// exists and parses; nullopt otherwise (kept by runs since the profile cache existed).
std::optional<LaunchShape> profiled_launch(const std::filesystem::path& dir, const Candidate& c) {
  const auto csv = dir / "profiles" / (c.fingerprint() + ".csv");
  std::ifstream in(csv, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  auto kernels = parse_ncu_csv(text.str(), csv.string());
  if (!kernels || kernels->size() != 1) return std::nullopt;  // the search's rule: one kernel
  auto profile = profile_from_ncu(kernels->front(), csv.string());
  if (!profile) return std::nullopt;
  return LaunchShape{profile->grid_size, profile->sm_count};
}

}  // namespace

void KernelOutcomes::add_run(const nlohmann::json& result, const std::string& file) {
  RecordedRun run{file, file.find("/cold_") != std::string::npos, {}};
  const std::filesystem::path dir = std::filesystem::path(file).parent_path();
  if (baseline_state_.empty()) baseline_state_ = result.value("baseline_state", "");
  seconds_ += result.value("seconds", 0.0);
  evaluations_ += result.value("evaluations", 0);
  // Log speedups against the baseline, as run_search keeps them.
  Candidate best = baseline(), parent = best;
  double best_log = 0.0, parent_log = 0.0;
  int rollout = -1;
  bool lost_rollout = false, lost_best = false;
  for (const auto& s : result.at("steps")) {
    run.best_speedup_after.push_back(s.value("best_speedup_after", 1.0));
    ++counts_.steps;
    if (s.value("rollout", 0) != rollout) {
      rollout = s.value("rollout", 0);
      parent = best, parent_log = best_log, lost_rollout = false;
    }
    if (lost_rollout || lost_best) {
      ++counts_.skipped;
      continue;
    }
    const std::string technique = s.value("technique", ""), change = s.value("change", "");
    const auto outcome = parse_outcome(s.value("outcome", ""));
    const bool faster = outcome == StepOutcome::faster;
    if (auto& rc = at(parent); rc.state.empty()) rc.state = s.value("state", "");
    ++counts_.parents;
    if (auto& rc = at(parent); !rc.launch) rc.launch = profiled_launch(dir, parent);
    if (at(parent).launch) ++counts_.parents_with_launch;
    bool loose = false;
    const Proposal p = propose(technique, parent, *spec_, gpu_);
    const Candidate* child = matching_child(p, change, loose);
    if (!child) {
      ++counts_.unmatched;
      if (counts_.unmatched_examples.size() < 5)
        counts_.unmatched_examples.push_back(technique + ": " + change);
      if (faster) {
        const double after = parent_log + std::log(s.value("speedup_vs_parent", 1.0));
        lost_rollout = true;
        lost_best = after > best_log;
      }
      continue;
    }
    ++(loose ? counts_.loose : counts_.exact);
    RecordedCandidate& rc = at(*child);
    if (!outcome || !is_measured(*outcome) || !s["speedup_vs_parent"].is_number()) {
      ++rc.failures;
      rc.failure = outcome && !is_measured(*outcome) ? *outcome : StepOutcome::verify_failure;
      continue;
    }
    const double log_speedup = std::log(s["speedup_vs_parent"].get<double>());
    rc.log_time_sum += -(parent_log + log_speedup);
    ++rc.timings;
    changes_[technique + '\x1f' + change].push_back(-log_speedup);
    if (faster) {
      const Candidate next = *child;  // `child` points into `p`
      parent = next, parent_log += log_speedup;
      if (parent_log > best_log) best = parent, best_log = parent_log;
    }
  }
  runs_.push_back(std::move(run));
}

const RecordedCandidate* KernelOutcomes::find(const std::string& key) const {
  const auto it = table_.find(key);
  return it == table_.end() ? nullptr : &it->second;
}

const std::vector<double>* KernelOutcomes::change_log_ratios(const std::string& technique,
                                                             const std::string& change) const {
  const auto it = changes_.find(technique + '\x1f' + change);
  return it == changes_.end() ? nullptr : &it->second;
}

}  // namespace kblaster
