// Verify then time every built kernel: what `kblaster bench` and, on a machine
// with a GPU, `kblaster run` do after building.
#pragma once

#include <nlohmann/json.hpp>

#include "eval/build_step.h"
#include "eval/gpu_context.h"
#include "eval/measure_step.h"
#include "eval/verify_step.h"

namespace kblaster {

struct BenchOutcome {
  nlohmann::json report;  // {"device", "peak_bytes_per_s", "kernels": […]}
  bool problem = false;   // a kernel failed verification or its timing was rejected
};

Result<BenchOutcome> verify_and_bench(const BuildReport& builds, GpuContext& gpu,
                                      const VerifyFlags& verify, const BenchFlags& bench,
                                      Session& session);

}  // namespace kblaster
