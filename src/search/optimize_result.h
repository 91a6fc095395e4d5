// `kblaster optimize` below the command line: the search run for every selected
// kernel on the GPU, and what it found as one result value (kind "optimize",
// reports/schema/optimize.schema.json).
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/exit_code.h"
#include "core/provenance.h"
#include "eval/build_step.h"
#include "eval/loaded_repo.h"
#include "eval/verify_step.h"
#include "kb/catalogue.h"
#include "llm/token_ledger.h"
#include "search/llm_policy.h"
#include "search/optimize_report.h"
#include "search/search_budget.h"

namespace kblaster {

// The model a run's LLM policy asks (llm/llm_setup.h opens it), and how.
struct OptimizeLlm {
  LlmBackend* backend = nullptr;  // not owned; a replay's or a model's
  std::string backend_name, model;
  LlmPolicyOptions options;
  LlmCaps caps;
  std::map<std::string, ModelPrice, std::less<>> prices;
  std::filesystem::path prompts_dir;  // the templates (llm/prompt_set.h)
  int in_flight = 1;  // requests at once ([llm] in_flight), and so rollouts searched at once
};

// What the search may do, with what, and where it writes, for every kernel of a run.
struct OptimizeSettings {
  SearchBudget budget;
  std::uint64_t search_seed = 0;  // of the technique choices; 0 = drawn (draw_seed)
  std::filesystem::path kb_file;  // the KB, created and seeded from the catalogue if absent
  std::filesystem::path out_dir;  // empty = REPO/.kblaster/optimize
  bool source_only = false;       // only source rewrites (--source-only, implied by --apply)
  WriteBack write_back = WriteBack::never;
  std::optional<OptimizeLlm> llm;  // the LLM policy's model; nullopt: the embedded policy alone
  std::set<std::string> only_techniques;  // --techniques: the only ones chosen; empty: all
};

// One kernel of the run: the search's result (write_optimize_result's JSON), or why
// there is none.
struct OptimizedKernel {
  std::string kernel;
  std::optional<nlohmann::json> result;  // nullopt: skipped, because of skip_reason
  std::string skip_reason;
};

// What an optimize run did: the settings it ran with and each kernel's search.
struct OptimizeResult {
  Provenance provenance;  // the caller's, with the GPU, nvcc, seeds and times filled in
  OptimizeSettings settings;
  std::vector<std::uint64_t> verification_seeds;  // of every candidate's verification
  BuildReport builds;                             // the baselines; empty when skipped
  std::vector<OptimizedKernel> kernels;           // one per selected kernel, in order
  std::string skipped;  // why no search ran (no CUDA device); "" when it did
  // With an LLM policy: {"backend", "model", "exchanges", and the run's TokenTotals}.
  std::optional<nlohmann::json> llm;
};

// Searches each selected kernel of `repo` that builds (seeding settings.search_seed
// when 0), writing each result under the output folder. Without a CUDA device every
// kernel is skipped and nothing is built or opened. Errors: no nvcc or harness, KB
// failures, harness failures that are not findings about a candidate.
Result<OptimizeResult> run_optimize(const LoadedRepo& repo, const BuildFlags& build,
                                    const VerifyFlags& verify, const Catalogue& catalogue,
                                    OptimizeSettings settings, Provenance provenance,
                                    Session& session);

// The version of the optimize result's JSON; reports/schema/optimize.schema.json.
inline constexpr int kOptimizeSchemaVersion = 1;

// {"kind": "optimize", "schema_version", "provenance", "search_seed", "verification_seeds",
// "budget", "kb", "out_dir", "source_only", "apply", "kernels": [a result each, with
// "status": "searched" or "skipped"], "builds", and "skipped" when the search was}.
nlohmann::json to_json(const OptimizeResult& result);

// 3 when skipped, 1 when a kernel's baseline did not build, else 0.
ExitCode optimize_exit_code(const OptimizeResult& result);

}  // namespace kblaster
