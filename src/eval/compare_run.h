// `kblaster compare` below the command line: A and B built and verified, then timed
// interleaved `repeat` times, as one result value (kind "compare",
// reports/schema/compare.schema.json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/exit_code.h"
#include "core/provenance.h"
#include "eval/build_step.h"
#include "eval/compare_series.h"
#include "eval/loaded_repo.h"
#include "eval/verify_step.h"

namespace kblaster {

// What a compare run found: both verifications and every timed comparison.
struct CompareRun {
  Provenance provenance;          // the caller's, with the GPU, nvcc, seeds and times filled in
  const KernelSpec* a = nullptr;  // repo.selected[0], the baseline
  const KernelSpec* b = nullptr;  // repo.selected[1]
  double min_effect = 0.0;
  BuildReport builds;                            // empty when skipped
  std::vector<KernelVerification> verification;  // A's, then B's
  CompareSeries series;                          // empty when not timed
  std::string not_timed;  // why A and B were not timed (a build or verification failed)
  std::string skipped;    // why nothing ran on the GPU; "" when it did
};

// Builds and verifies A and B (`repo.selected`, two specs with one workload, which
// must outlive the run), then times B against A `repeat` times at A's timed size.
// Without a CUDA device nothing is built and both are skipped. Errors: no nvcc or
// harness, harness failures that are not findings.
Result<CompareRun> run_compare(const LoadedRepo& repo, const BuildFlags& build,
                               const VerifyFlags& verify, CompareFlags compare, int repeat,
                               Provenance provenance, Session& session);

// The version of the compare result's JSON; reports/schema/compare.schema.json.
inline constexpr int kCompareSchemaVersion = 1;

// {"kind": "compare", "schema_version", "provenance", "a" and "b" ({"kernel", "source"}),
// "size", "min_effect", "verification", "runs" (each A/B with its samples), "tally",
// "builds", and "stopped", "not_timed" or "skipped" when they apply}.
nlohmann::json to_json(const CompareRun& run);

// 3 when skipped; 1 when not timed, or a run was SLOWER or REJECTED; else 0.
ExitCode compare_exit_code(const CompareRun& run);

}  // namespace kblaster
