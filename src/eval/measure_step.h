// Timing one verified candidate at its timed size (the first of `sizes`), by
// nvbench's method: samples from kblaster-harness until the stopping rule is
// met, throttled samples dropped, the output re-verified after timing, and the
// median checked against the roofline floor.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "eval/build_step.h"
#include "gpu/harness_client.h"
#include "profile/roofline.h"
#include "stats/stopping_rule.h"
#include "stats/summary.h"

namespace kblaster {

// A kernel from 20 us (kHotBelowSeconds) to this is timed in kMidTimingContexts contexts. On the
// H200 softmax (65 us) varied 0.18 % (sd) between processes and 0.05 % within one, and its medians
// spread 0.45-0.83 % over 10 processes against issue 21's 0.5 % target: the typical of 4 contexts
// was predicted to spread 0.34 % (bench/results/2026-12-03-mid-contexts-registered.md).
inline constexpr double kMidContextsBelowSeconds = 1e-3;
inline constexpr int kMidTimingContexts = 4;

struct BenchFlags {
  StoppingCriteria stop;
  int repeat = 1;  // measurements per kernel, each on fresh inputs, after one verification
  double throttle_threshold =
      0.95;  // drop samples whose SM clock is under this share of the median
  // The seed of the timed inputs; 0 = drawn fresh (draw_seed). A command given --seed N
  // sets it from N (timing_seed), so the run repeats.
  std::uint64_t seed = 0;
  // `bench --baseline torch`: also time each kernel's PyTorch reference, eager and under
  // torch.compile, on the inputs of its first timing (eval/baseline_step.h).
  bool torch_baseline = false;
  // The CUDA contexts a kernel of kHotBelowSeconds to kMidContextsBelowSeconds is timed in.
  int mid_contexts = kMidTimingContexts;
};

// The device's measured ceilings, against which achieved rates are reported.
// Ceilings are profile/roofline.h's MeasuredCeilings (eval/ceilings_cache.h measures and caches
// them).
using Ceilings = MeasuredCeilings;

// A kernel too short for one event pair timed as nvbench's batch measurement: each sample is
// `calls` launcher calls back to back, L2 warm, over `calls`. Reported beside the cold time.
struct HotMeasurement {
  int calls = 0;                      // launcher calls per sample
  std::vector<double> samples;        // kept samples, seconds per call, in order taken
  std::vector<double> sample_sm_mhz;  // the SM clock of each kept sample
  std::size_t throttled = 0;
  Summary summary;
  StopDecision stop;
  bool inout_carried_over = false;  // an inout argument compounded over each batch's calls
};

// One CUDA context's share of a launch-bound kernel's timing: its kept cold and hot samples.
// A launch-bound kernel's time falls in one of two modes about 5 % apart, fixed for the life of
// a CUDA context and the same for every buffer placement within it (H200, 2026-12-03,
// bench/results/2026-12-03-h200-contexts.md), so such a kernel is timed in several contexts.
struct ContextTiming {
  std::vector<double> samples, sample_sm_mhz;          // cold, kept, in order taken
  std::vector<double> hot_samples, hot_sample_sm_mhz;  // hot batches, kept
  Summary summary, hot_summary;
  StopDecision stop, hot_stop;
  std::size_t throttled = 0, hot_throttled = 0;
  double sm_mhz = 0.0;
};

struct Measurement {
  std::string size;                   // the timed size, "n=16777216"
  std::uint64_t seed = 0;             // of the inputs timed and rechecked
  std::vector<double> samples;        // kept samples, seconds, in order taken
  std::vector<double> sample_sm_mhz;  // the SM clock of each kept sample (MHz; 0: unknown)
  std::size_t throttled = 0;          // samples dropped for a low SM clock
  Summary summary;                    // of the kept samples
  double sm_mhz = 0.0;                // median SM clock of the run
  StopDecision stop;
  std::int64_t min_bytes = 0;
  std::optional<std::int64_t> flops;
  double floor_seconds = 0.0;  // min_bytes over the measured bandwidth
  CheckVerdict recheck;        // the output after timing, on fresh inputs
  std::string rejected;        // why the timing cannot be trusted; empty if it can
  // With a cold median under kHotBelowSeconds: the hot batch measurement too. An inout
  // argument carries over between a batch's calls (nvbench's batch does the same); the recheck
  // checks the cold samples' output, and verdicts use the cold time.
  std::optional<HotMeasurement> hot;
  // A launch-bound kernel (warm-up under kHotBelowSeconds) is timed in kTimingContexts fresh
  // CUDA contexts (harness processes), each with 1/kTimingContexts of the stopping rule's time;
  // every context's samples are here, and the cold and hot results above are each those of the
  // context at the median of the fast mode (stats/context_choice.h). Empty for a kernel timed in
  // one context.
  std::vector<ContextTiming> contexts;
  // Set when the launcher waits for the GPU (a workspace's cudaMalloc/cudaFree), so the stream
  // cannot be held: each sample is then the wall time of one call and a device synchronize.
  bool unheld = false;

  double bytes_per_s() const { return summary.median > 0 ? min_bytes / summary.median : 0.0; }
};

// A cold median under this is measured hot too: a few event-timer ticks (~32 ns) are a
// percent of it.
inline constexpr double kHotBelowSeconds = 20e-6;
// The contexts a launch-bound kernel is timed in. On the H200 38 of 80 contexts were in the slow
// mode (2026-12-03), so all 16 are slow about once in 150,000 runs, and enough are fast that
// their median is not one context's outlier.
inline constexpr int kTimingContexts = 16;

// Launcher calls in one hot batch of a kernel that takes about `seconds` a call: enough for
// ~100 us of GPU time (hundreds of event-timer ticks), at least 2 and at most 64 (well within
// the device's queue of pending launches while the stream is held).
int hot_batch_calls(double seconds);

// Times candidate `candidate` of the loaded objects, which the caller has
// verified. `harness` must hold the objects (load), or have held them in a
// harness a candidate brought down since: they are loaded again. Errors are harness
// failures before timing starts; a candidate that fails while timed, a failed
// recheck of its last timed output, or an implausible time is `rejected`.
Result<Measurement> measure(HarnessClient& harness, const KernelSpec& spec, int candidate,
                            const BenchFlags& flags, const Ceilings& ceilings, Clock& clock);

// "61.2 us ±0.3% (n=812, 3 throttled) 3.29 TB/s = 77% of 4.27 TB/s, SM 1980 MHz, converged".
std::string describe(const Measurement& m, const Ceilings& ceilings);
nlohmann::json to_json(const Measurement& m, const Ceilings& ceilings);

}  // namespace kblaster
