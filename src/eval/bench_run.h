// `kblaster bench` below the command line: the selected kernels built, verified and
// timed on the GPU, as one result value (kind "bench", reports/schema/bench.schema.json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/exit_code.h"
#include "core/provenance.h"
#include "eval/bench_step.h"
#include "eval/loaded_repo.h"

namespace kblaster {

// What a bench run found, with where it came from.
struct BenchRun {
  Provenance provenance;  // the caller's, with the GPU, nvcc, seeds and times filled in
  BuildReport builds;     // empty when skipped
  BenchOutcome outcome;   // a kernel each; each skipped when there is no GPU
  std::string skipped;    // why nothing ran on the GPU; "" when it did
};

// Builds, verifies and times every selected kernel of `repo` (which must outlive the
// run). Without a CUDA device nothing is built and every kernel is skipped. Errors:
// no nvcc or harness, an unusable cache, harness failures that are not findings.
Result<BenchRun> run_bench(const LoadedRepo& repo, const BuildFlags& build,
                           const VerifyFlags& verify, const BenchFlags& bench,
                           Provenance provenance, Session& session);

// Each selected kernel of `repo`, its verification skipped: "no CUDA device".
BenchOutcome skipped_bench(const LoadedRepo& repo);

// verify_and_bench of `builds` on `gpu`, recording the seeds it drew and the median SM
// clock of its timings in `provenance`.
Result<BenchOutcome> bench_builds(const BuildReport& builds, GpuContext& gpu,
                                  const VerifyFlags& verify, const BenchFlags& bench,
                                  Provenance& provenance, Session& session);

// The version of the bench result's JSON; reports/schema/bench.schema.json.
inline constexpr int kBenchSchemaVersion = 1;

// {"kind": "bench", "schema_version", "provenance", to_json(BenchOutcome)'s fields,
// "builds", and "skipped" when the GPU work was}.
nlohmann::json to_json(const BenchRun& run);

// 3 when skipped; 1 when a kernel failed to build or verify or its timing was
// rejected; else 0.
ExitCode bench_exit_code(const BenchRun& run);

}  // namespace kblaster
