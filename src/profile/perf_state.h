// The deterministic performance-state classifier: a profile (per kernel and
// summed) and a code signature in, one PerfState out. The rules are one ordered
// table (state_rules.cc), documented rule by rule in docs/states.md; their keys
// are exactly the states of kb/catalogue/states.json.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "profile/code_signature.h"
#include "profile/kernel_profile.h"
#include "profile/roofline.h"

namespace kblaster {

// The launch's size against the GPU, when the profile had both and the launcher
// launched one kernel: what launch techniques size a block against
// (src/search/technique_appliers). Unset for several kernels, whose grids need
// not scale with one block size (a reduction's one-block final pass).
struct LaunchShape {
  std::optional<double> grid_size;  // blocks launched
  std::optional<double> sm_count;
};

// What the classifier concluded. `explanation` is one line that cites the
// numbers the deciding rule read ("DRAM throughput 91.2% of peak >= 70% …").
struct PerfState {
  std::string key;         // e.g. "memory.dram_saturated"
  std::string bottleneck;  // the key's class: memory, compute, latency, launch
  std::string explanation;
  std::vector<std::string>
      features;        // left empty by classify(); callers fill it from signature.features()
  LaunchShape launch;  // from the summed profile
  // The summed profile the state was read from, metric by metric; unset where the state
  // comes from timing only (no ncu). Left unset by classify(); read_profile fills it.
  std::optional<KernelProfile> profile;
};

// Everything a rule may read. `kernels` are the launcher's kernels one by one
// (at least one); `total` is their sum (sum_profiles), the same as kernels[0]
// for a single kernel. `roofline` is set when the workload's minimum bytes and
// FLOPs and measured ceilings are known.
struct ClassifierInput {
  std::vector<KernelProfile> kernels;
  KernelProfile total;
  CodeSignature signature;
  std::optional<RooflinePosition> roofline;
};

// Applies the rules in order; the first that matches decides. Never fails: with
// nothing conclusive it returns latency.no_dominant_bottleneck and says which
// inputs were missing.
PerfState classify(const ClassifierInput& input);

}  // namespace kblaster
