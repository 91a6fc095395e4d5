// Verify then time every built kernel: what `kblaster bench` and, on a machine
// with a GPU, `kblaster run` do after building.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "eval/baseline_step.h"
#include "eval/build_step.h"
#include "eval/gpu_context.h"
#include "eval/measure_step.h"
#include "eval/verify_step.h"

namespace kblaster {

// One kernel: its verification, then its timings when it passed.
struct BenchedKernel {
  KernelVerification verification;
  std::vector<Measurement> runs;  // --repeat measurements in order; empty when not timed
  std::string stopped;            // why the repeats stopped early; "" when they did not
  // With --baseline torch: the PyTorch reference timed in each of kTorchModes, on the first
  // timing's inputs; empty otherwise, and when the kernel was not timed.
  std::vector<BaselineMeasurement> baselines;
  std::string no_baseline;  // why a kernel has none with --baseline torch; "" otherwise
};

// Every kernel verified and timed, against the device's ceilings.
struct BenchOutcome {
  Ceilings ceilings;  // the device's, which rates are reported against
  std::vector<BenchedKernel> kernels;
  // The verification seeds, then each timing's, in order: what repeats the run.
  std::vector<std::uint64_t> seeds;
  bool problem = false;  // a kernel failed verification or its timing was rejected
};

// Verifies every kernel of `builds` (with --seed, else a drawn first seed that also
// fixes the timed inputs, so the printed --seed repeats the whole run), then times each
// one that passed `bench.repeat` times. Errors are harness failures that are not findings.
Result<BenchOutcome> verify_and_bench(const BuildReport& builds, GpuContext& gpu,
                                      const VerifyFlags& verify, const BenchFlags& bench,
                                      Session& session);

// {"peak_bytes_per_s", "peak_fp32_flops_per_s", "kernels": [{"name", "verification", and
// when timed "measurement" (the first run), with --repeat also "repeats", "medians_s" and
// "median_spread"}]}; a measurement carries every kept sample and its SM clock.
nlohmann::json to_json(const BenchOutcome& outcome);

// The median SM clock of each timing, for the result's provenance.
std::vector<double> timing_clocks(const BenchOutcome& outcome);

}  // namespace kblaster
