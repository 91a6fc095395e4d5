// `kblaster verify` below the command line: the selected kernels built and verified
// at every size on the GPU, as one result value (kind "verify",
// reports/schema/verify.schema.json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/exit_code.h"
#include "core/provenance.h"
#include "eval/build_step.h"
#include "eval/loaded_repo.h"
#include "eval/verify_step.h"

namespace kblaster {

// What a verify run found: each kernel's verdict per size.
struct VerifyRun {
  Provenance provenance;  // the caller's, with the GPU, nvcc, seeds and times filled in
  BuildReport builds;     // empty when skipped
  std::vector<KernelVerification> kernels;  // one per selected kernel, in order
  std::string skipped;                      // why nothing ran on the GPU; "" when it did
};

// Builds and verifies every selected kernel of `repo` (which must outlive the run),
// printing a line per kernel and size and the tally. Without a CUDA device nothing is
// built and every kernel is skipped. Errors: no nvcc or harness, an unusable cache,
// harness failures that are not verdicts.
Result<VerifyRun> run_verify(const LoadedRepo& repo, const BuildFlags& build,
                             const VerifyFlags& verify, Provenance provenance, Session& session);

// The version of the verify result's JSON; reports/schema/verify.schema.json.
inline constexpr int kVerifySchemaVersion = 1;

// {"kind": "verify", "schema_version", "provenance", "summary" ({status: kernels}),
// "kernels" (each with its verdict per size), "builds", and "skipped" when the GPU work was}.
nlohmann::json to_json(const VerifyRun& run);

// 3 when skipped; 1 when a kernel failed to build or verify; else 0.
ExitCode verify_exit_code(const VerifyRun& run);

}  // namespace kblaster
