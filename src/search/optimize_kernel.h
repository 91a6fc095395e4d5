// `kblaster optimize` for one built kernel: the search (search/search_loop.h) with a
// GpuEvaluator over the run's harness, then its result written (optimize_report.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "eval/build_step.h"
#include "eval/gpu_evaluator.h"
#include "eval/profiler.h"
#include "eval/session.h"
#include "gpu/compiler.h"
#include "gpu/harness_client.h"
#include "kb/catalogue.h"
#include "kb/store.h"
#include "profile/roofline.h"
#include "search/optimize_report.h"
#include "search/search_budget.h"
#include "search/search_loop.h"

namespace kblaster {

// What every kernel of one optimize run shares.
struct OptimizeRun {
  std::filesystem::path repo_root;
  const BuildReport* builds = nullptr;  // the baselines: arch, cache directory
  HarnessClient* harness = nullptr;
  Compiler* compiler = nullptr;
  Store* kb = nullptr;
  const Catalogue* catalogue = nullptr;
  MeasuredCeilings ceilings;
  Profiler* profiler = nullptr;             // its "why none" means states from timing only
  std::filesystem::path out_dir;            // results go to out_dir/<kernel>
  std::uint64_t seed = 0;                   // of the search's choices
  std::vector<std::uint64_t> verification;  // seeds of every candidate's verification
  SearchBudget budget;
  bool source_only = false;
  WriteBack write_back = WriteBack::never;
  LlmPolicy* llm = nullptr;               // the model's policy beside the embedded one; null: none
  std::set<std::string> only_techniques;  // --techniques; empty: all
  int lanes = 1;                          // rollouts searched at once (SearchOptions::lanes)
};

// One kernel's search, its evaluator made before the search runs, so that the first step's
// children can start building early: while the kernel before it is given its final A/B and
// written, the compiler has nothing else to do. Not movable: builds in flight hold the evaluator.
class KernelOptimization {
 public:
  // For `baseline` (which must have built) in `run`. Errors: an unreadable source.
  static Result<std::unique_ptr<KernelOptimization>> prepare(const KernelBuild& baseline,
                                                             const OptimizeRun& run, Clock& clock);
  KernelOptimization(const KernelOptimization&) = delete;
  KernelOptimization& operator=(const KernelOptimization&) = delete;

  const std::string& kernel() const { return baseline_.spec->name; }
  // Starts building, in the background, the children the search asks for first
  // (first_children); returns how many it asked for.
  std::size_t build_first_children_ahead();
  // Searches, calls `searched` (the next kernel's early start), then writes the result with its
  // final A/B: write_optimize_result's JSON. Errors: KB and harness failures that are not
  // findings about a candidate.
  Result<nlohmann::json> run(Session& session, const std::function<void()>& searched);

 private:
  KernelOptimization(const KernelBuild& baseline, const OptimizeRun& run, std::string source,
                     Clock& clock);

  const KernelBuild& baseline_;
  const OptimizeRun& run_;
  Candidate as_read_;  // the search starts from the source as the repository holds it
  SearchOptions search_;
  GpuEvaluator evaluator_;
};

}  // namespace kblaster
