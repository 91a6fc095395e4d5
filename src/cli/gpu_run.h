// What `verify`, `bench` and `run` start from: the repository loaded, its kernels
// built, and the harness running on the CUDA device.
#pragma once

#include "cli/command.h"
#include "cli/repository.h"
#include "eval/build_step.h"
#include "eval/gpu_context.h"

namespace kblaster {

// The repository, every selected kernel built with its reference, and the harness.
struct GpuRun {
  LoadedRepo repo;  // owns the specs the builds point at; keep it with them
  BuildReport builds;
  GpuContext gpu;
};

// Error::environment before building anything when there is no CUDA device.
Result<GpuRun> start_gpu_run(const CommonOptions& common, const BuildFlags& build,
                             double launch_timeout_s, Session& session);

}  // namespace kblaster
