// `bench --baseline torch`: a kernel's PyTorch reference timed eager and under torch.compile by
// kblaster's method (each sample one call after an L2 flush, between CUDA events, the stream held
// behind a GPU spin while the call is queued, until the stopping rule ends them), on the inputs
// the kernel was just timed on.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/clock.h"
#include "eval/measure_step.h"
#include "gpu/harness_client.h"
#include "stats/summary.h"

namespace kblaster {

// The PyTorch modes a baseline is timed in, in the order reported.
inline const std::vector<std::string> kTorchModes = {"eager", "compile"};

struct BaselineMeasurement {
  std::string mode;             // "eager" or "compile"
  std::vector<double> samples;  // seconds, in order taken
  Summary summary;
  StopDecision stop;
  std::string runtime;   // "torch 2.5.1 on cuda"
  std::string failed;    // why it could not be timed; "" when it was
  double speedup = 0.0;  // the baseline's median over the kernel's; 0 when not timed
};

// Times the loaded PyTorch reference in `mode` on the last bench_prepare's inputs (from `seed`)
// until flags.stop ends it, its time counted from the first answer (torch's import and
// torch.compile's compiling are not samples); `kernel_median_s` (the kernel's cold median) gives
// the speedup. A worker that fails (torch.compile cannot compile the module, say) is `failed`,
// not an Error, and a harness it took down is restored with the same inputs; Errors are a
// harness that cannot be restored.
Result<BaselineMeasurement> measure_baseline(HarnessClient& harness, const std::string& mode,
                                             double kernel_median_s, std::uint64_t seed,
                                             const BenchFlags& flags, Clock& clock);

// "torch eager 12.3 us median (n=412): the kernel 1.52x faster", or why it was not timed.
std::string describe(const BaselineMeasurement& b);

// {mode, runtime, median_s, q1_s, q3_s, samples, stop, speedup} or {mode, failed}.
nlohmann::json to_json(const BaselineMeasurement& b);

}  // namespace kblaster
