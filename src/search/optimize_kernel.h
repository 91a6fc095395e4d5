// `kblaster optimize` for one built kernel: the search (search/search_loop.h) with a
// GpuEvaluator over the run's harness, then its result written (optimize_report.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "eval/build_step.h"
#include "eval/profiler.h"
#include "eval/session.h"
#include "gpu/compiler.h"
#include "gpu/harness_client.h"
#include "kb/catalogue.h"
#include "kb/store.h"
#include "profile/roofline.h"
#include "search/optimize_report.h"
#include "search/search_budget.h"

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

// Searches from `baseline`'s source (`baseline` must have built) and writes the
// result; write_optimize_result's JSON. Errors: an unreadable source, KB and harness
// failures that are not findings about a candidate.
Result<nlohmann::json> optimize_kernel(const KernelBuild& baseline, const OptimizeRun& run,
                                       Session& session);

}  // namespace kblaster
