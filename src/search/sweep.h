// `kblaster sweep` below the command line (issue 20): one shard of a nightly sweep over a
// kernel repository. The shard's kernels are built, verified and timed as `kblaster run`
// does, then each that verified is optimized within its own budget and the shard's deadline.
// One result value of kind "sweep" (reports/schema/sweep.schema.json) says what was done and
// where each result was written.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/exit_code.h"
#include "core/provenance.h"
#include "eval/ci_run.h"
#include "eval/shard.h"
#include "search/optimize_result.h"

namespace kblaster {

struct SweepSettings {
  Shard shard;
  std::string shard_from;         // "--shard", "the environment", or "no shard named: …"
  std::string split_digest;       // split_digest of the repository's kernels over shard.count
  std::size_t costs_known = 0;    // kernels whose cost the KB had for the split
  double max_seconds = 3600;      // the shard's deadline, counted from its start
  double kernel_seconds = 300;    // one kernel's search at most
  double least_search_s = 30;     // a search that would get less is not started
  OptimizeSettings optimize;      // the searches' (budget.max_seconds is set per kernel)
  std::filesystem::path out_dir;  // run.json, optimize-<kernel>.json, the searches' folders
};

// A kernel of the shard that was not searched, and why.
struct NotSearched {
  std::string kernel, why;
};

struct SweepResult {
  Provenance provenance;
  SweepSettings settings;
  std::vector<std::string> kernels;  // the shard's, by name
  std::size_t repository_kernels = 0;
  std::filesystem::path run_file;                // the run result; "" when none was written
  std::vector<std::filesystem::path> optimized;  // an optimize result per searched kernel
  std::vector<NotSearched> not_searched;
  std::vector<nlohmann::json> results;  // the run's and each search's result, for reports
  std::string skipped;                  // why nothing ran on the GPU; "" when it did
  ExitCode exit = ExitCode::ok;
};

// Sweeps the kernels `repo` selects (the caller selects the shard's: shard_kernels), within
// settings.max_seconds of now on `clock`. Each result is written under settings.out_dir as
// soon as it exists, and each searched kernel's cost (its search's seconds plus its share of
// the run's) is recorded in the KB for the next split. Errors: run_ci's, run_optimize's, the
// KB's, and files that cannot be written.
Result<SweepResult> run_sweep(LoadedRepo repo, std::size_t repository_kernels,
                              const BuildFlags& build, const VerifyFlags& verify,
                              const BenchFlags& bench, const Catalogue& catalogue,
                              SweepSettings settings, Provenance provenance, Session& session);

// The version of the sweep result's JSON; reports/schema/sweep.schema.json.
inline constexpr int kSweepSchemaVersion = 1;

// {"kind": "sweep", "schema_version", "provenance", "shard": {"index", "count", "from"},
// "kernels", "repository_kernels", "budget": {"max_seconds", "kernel_seconds"}, "run_file",
// "optimize_files", "not_searched": [{"kernel", "why"}], "skipped" when it was, "exit_code"};
// "shard" also holds "split_digest" and "costs_known".
nlohmann::json to_json(const SweepResult& result);

}  // namespace kblaster
