// One kernel profiled under Nsight Compute: a fresh kblaster-harness started by
// ncu, the candidate loaded and set up at one size, and one launch inside the
// NVTX range "kblaster" (docs/harness-protocol.md, `profile`).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "core/launch_plan.h"
#include "core/status.h"
#include "eval/build_step.h"
#include "gpu/ncu.h"

namespace kblaster {

struct NcuRun {
  std::string csv;                     // what ncu wrote (kept at the `csv` path given)
  std::optional<std::string> problem;  // why it holds no profile; nullopt when it does
};

// Runs `build`'s candidate at `size`, on inputs from `seed`, under `ncu`, writing ncu's
// CSV to `csv`.
// ncu and the harness it starts run in one sandbox, the harness's: scrubbed
// environment, rlimits, and a network namespace of their own whose loopback is
// up, which is all ncu needs to talk to its target.
// A harness that fails or times out under ncu is a run with a `problem` (with
// ncu's log line when it has one), so callers fall back to timing; no Error.
Result<NcuRun> run_under_ncu(const NcuTool& ncu, const KernelBuild& build, const SizePlan& size,
                             NcuMetrics metrics, const std::filesystem::path& csv, double timeout_s,
                             std::uint64_t seed);

}  // namespace kblaster
