// The embedded, LLM-free techniques: for a catalogue technique id, the child
// candidates it proposes from a parent. Source rewrites come from src/transform;
// flags, arch and tunables are set here.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel_spec.h"
#include "eval/candidate.h"
#include "profile/perf_state.h"

namespace kblaster {

// What a technique proposes: children to try (each with its change described),
// or none with the reason it does not apply to this parent. When the parent's
// profile, or locality, argues for some children, `preferred` holds their
// fingerprints and `because` says why; the search draws among those still not
// evaluated before it draws among all.
struct Proposal {
  std::vector<Candidate> children;
  std::string why_not;
  std::vector<std::string> preferred;
  std::string because;
};

// Where the candidates run: decides the flags that depend on the GPU.
struct TargetGpu {
  std::string arch;                // "sm_90"
  bool has_arch_specific = false;  // an "a" variant exists (sm_90a on Hopper)
};

// Whether nvcc has an arch-specific "a" variant of `arch` ("sm_90" -> sm_90a;
// also sm_100, sm_101, sm_120). False for an arch that already is one ("sm_90a")
// and for older ones ("sm_80").
bool has_arch_specific_variant(std::string_view arch);

// The technique ids of kb/catalogue/techniques.json with an embedded applier.
const std::set<std::string>& embedded_techniques();

// True for the embedded techniques whose children differ from their parent in
// source text alone (restrict, bounds, unrolling, launch constants): a result made
// only of these can be written back to the user's file. Flags, arch and tunables
// need build settings the source does not carry.
bool rewrites_source_only(std::string_view technique);

// The children `technique` proposes for `parent` of `spec`. A technique already on
// the parent's path that cannot usefully repeat (flags, restrict, bounds,
// unrolling) proposes nothing; tunables and launch constants propose the values
// not yet taken. `shape` is the parent's launch as profiled: when its grid has
// fewer blocks than the GPU has SMs, launch-geometry tuning prefers the largest
// block that fills every SM (assuming the grid is the work divided by the block);
// otherwise it prefers each constant's neighbours, half and twice its value, over
// jumps to far sizes, which are rarely better and cost an evaluation each. It
// never proposes a larger block that, by the same estimate, leaves SMs without a block.
Proposal propose(std::string_view technique, const Candidate& parent, const KernelSpec& spec,
                 const TargetGpu& gpu, const LaunchShape& shape = {});

}  // namespace kblaster
