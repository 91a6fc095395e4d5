// `kblaster run` below the command line: everything for one CI event on the selected
// kernels, as one result value (kind "run", reports/schema/run.schema.json). Every
// kernel is planned and built, on any machine; with a CUDA device each is then
// verified and timed as `kblaster bench` does.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/exit_code.h"
#include "core/provenance.h"
#include "eval/bench_step.h"
#include "eval/loaded_repo.h"

namespace kblaster {

// What a run found, with where it came from.
struct CiRun {
  Provenance provenance;       // the caller's, with the GPU, nvcc, seeds and times filled in
  std::size_t spec_files = 0;  // the config's spec files, for the summary line
  BuildReport builds;          // every selected kernel, built with or without a device
  BenchOutcome outcome;        // a kernel each; each skipped when there is no GPU
  std::string skipped;         // why nothing ran on the GPU; "" when it did
};

// Checks that every selected kernel of `repo` (which must outlive the run) has a
// launch plan, builds them all, and on a CUDA device verifies and times each.
// Errors: a kernel with no valid plan (config), no nvcc or harness, an unusable
// cache, harness failures that are not findings.
Result<CiRun> run_ci(const LoadedRepo& repo, const BuildFlags& build, const VerifyFlags& verify,
                     const BenchFlags& bench, Provenance provenance, Session& session);

// The version of the run result's JSON; reports/schema/run.schema.json.
inline constexpr int kRunSchemaVersion = 1;

// {"kind": "run", "schema_version", "provenance", "builds", to_json(BenchOutcome)'s
// fields, and "skipped" when the GPU work was}.
nlohmann::json to_json(const CiRun& run);

// 1 when a kernel failed to build or verify or its timing was rejected; else 3
// when the GPU work was skipped; else 0.
ExitCode ci_exit_code(const CiRun& run);

}  // namespace kblaster
