// One A/B comparison at the timed size: both candidates loaded in one harness,
// launched interleaved (ABAB…, the lead alternating per batch), sampled until
// the verdict is no longer AMBIGUOUS or the budget ends (stats/ab_sampling.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/kernel_spec.h"
#include "gpu/harness_client.h"
#include "stats/ab_sampling.h"

namespace kblaster {

struct CompareFlags {
  VerdictCriteria criteria;
  AbBudget budget;
  double throttle_threshold = 0.95;
  // The seed of the timed inputs; 0 = drawn fresh (draw_seed). A command given --seed N
  // sets it from N (timing_seed), so the run repeats.
  std::uint64_t seed = 0;
};

// The pairs a verdict was computed from, in the order taken: each candidate's time
// (seconds) and the SM clock it ran at (MHz; 0 when the harness could not read it).
struct AbSamples {
  std::vector<double> a_s, b_s;
  std::vector<double> a_sm_mhz, b_sm_mhz;
};

// One CUDA context's share of a launch-bound A/B: the kept samples of each candidate.
struct AbContext {
  AbSamples samples;
  double a_median = 0.0, b_median = 0.0;
};

struct AbResult {
  Comparison comparison;
  std::uint64_t seed = 0;  // of the inputs both candidates were timed and rechecked on
  std::size_t pairs = 0;
  std::size_t throttled_pairs = 0;
  AbSamples samples;    // the pairs kept (not throttled): what the verdict used
  double sm_mhz = 0.0;  // median SM clock of the comparison; 0 when unknown
  AbState end = AbState::sampling;
  CheckVerdict recheck_a, recheck_b;  // each candidate's last timed output, on this run's inputs
  // A launch-bound pair (both warm-up medians under kHotBelowSeconds) is timed in
  // kTimingContexts fresh CUDA contexts, as bench times such a kernel: in one context each
  // kernel's time falls in one of two modes ~5 % apart, which biased one process's B/A by ~4 %
  // for all its runs (bench/results/2026-12-03-h200-contexts.md). The verdict then compares A's
  // typical fast context with B's (stats/context_choice.h; `samples` are those two contexts');
  // every context is kept here.
  // Empty for a pair timed in one context.
  std::vector<AbContext> contexts;
  std::size_t a_context = 0, b_context = 0;  // the contexts the verdict used
  // A launch-bound pair's samples are hot batches of this many calls each (time per call, L2
  // warm), as bench's hot time: a single 4-us launch is a few ticks of the 32-ns event timer,
  // which left 12 of 20 identical H200 pairs AMBIGUOUS (bench/results/2026-12-03-h200-rule2.md).
  // 1 for a pair timed in one context.
  int calls = 1;
  // Set when a launcher waits for the GPU: both were then timed unheld (wall time of each call
  // and a device synchronize), not behind a held stream.
  bool unheld = false;
  // Why the verdict cannot be trusted (a candidate failed while timed, or its
  // last timed output was wrong); empty if it can.
  std::string rejected;
};

// Candidates 0 (A) and 1 (B) must be loaded and set up at the timed size; if a
// candidate brought the harness down since, they are loaded and set up again. A launch-bound
// pair is timed in several fresh harnesses (AbResult::contexts), so the harness that holds
// them afterwards is a new one.
// Their last timed outputs are rechecked `against` the loaded reference, or
// against A's output (Against{0}) for a kernel whose reference is the base
// revision. Errors are harness failures before timing starts; a candidate
// failing while timed, or a failed recheck, is `rejected`.
Result<AbResult> compare_once(HarnessClient& harness, const KernelSpec& spec,
                              const CompareFlags& flags, Clock& clock,
                              const Against& against = Against{});

// How a pair was timed when not the usual way (cold, one context, the stream held), for a
// progress line: "hot batches of 25 calls in 16 CUDA contexts" or "unheld (…)"; empty otherwise.
std::string ab_method_note(const AbResult& r);

// The result with its verdict's numbers, the recheck and every kept pair ("samples").
nlohmann::json to_json(const AbResult& r);

// Narrows `a` and `b` to the sizes both accept (`requires`), in declared order, adding each size
// one of them breaks to both kernels' left_out. The lines that say so, one per size left out
// ("n=1001 left out: `fast` requires `n % 4 == 0` (n=1001)"); Error::usage when no size is left.
Result<std::vector<std::string>> keep_common_sizes(KernelSpec& a, KernelSpec& b);

// Both candidates are verified and timed on one argument list, so their specs
// must agree on everything that shapes it: arguments (with their inits and reference types),
// constants, declared sizes and tolerance.
// Error::usage naming both kernels when they do not.
Status check_same_workload(const KernelSpec& a, const KernelSpec& b);

}  // namespace kblaster
