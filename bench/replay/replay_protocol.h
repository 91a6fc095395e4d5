// The KB-cold vs KB-warm ablation of bench/ablation.sh (with TRAIN_SEEDS), replayed
// offline: the real run_search, SQLite KB, seed catalogue and kb merge, against
// ReplayEvaluator. KB files live in a temporary folder of their own.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "kb/catalogue.h"
#include "recorded_outcomes.h"
#include "replay_evaluator.h"
#include "search/search_budget.h"
#include "search/technique_choice.h"

namespace kblaster {

struct ReplayProtocol {
  std::vector<std::uint64_t> seeds;        // search seeds of the compared pairs
  std::vector<std::uint64_t> train_seeds;  // seeds of the training cold runs
  std::vector<std::string> kernels;        // the compared kernels
  SearchBudget budget{4, 3, 60.0, 2, 0.01};
  ChoiceOptions choice;  // the choice rule's knobs, as `kblaster optimize` sets them by default
  TargetGpu gpu{"sm_90", true};
  std::filesystem::path kb_dir;  // must exist; KB files are written here
};

// One replayed search: best log speedup after each evaluation, and where its answers came from.
struct ReplayedRun {
  std::vector<double> best_so_far;
  ReplayCoverage coverage;
};

struct ReplayedPair {
  std::string kernel;
  std::uint64_t seed = 0;
  ReplayedRun cold, warm;
};

struct ReplayedAblation {
  std::vector<ReplayedPair> pairs;  // seed by seed, kernel by kernel
  ReplayCoverage training;          // coverage of the training runs
};

// Runs the training cold runs of every kernel of `recorded` for each train seed, builds
// each compared kernel's warm KB by merging the other kernels' training KBs, then each
// (seed, kernel) pair. Errors are the KB's or the search's.
Result<ReplayedAblation> replay_ablation(const std::map<std::string, KernelOutcomes>& recorded,
                                         const Catalogue& catalogue, const ReplayProtocol& p);

}  // namespace kblaster
