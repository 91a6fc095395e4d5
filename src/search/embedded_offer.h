// What the embedded techniques offer a search step: each technique's children of a parent
// that are not built yet, which of them the next steps will likely want (built ahead while the
// GPU measures), and the child a step takes from a technique's offer.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "eval/candidate.h"
#include "profile/perf_state.h"
#include "search/technique_appliers.h"
#include "stats/random_source.h"

namespace kblaster {

// The techniques that propose at least one child for `parent` not evaluated yet (not in
// `seen`; nor the baseline: a tunable set back to its first value is not new), and those
// children; with `source_only`, only techniques for which rewrites_source_only() holds.
std::map<std::string, Proposal> embedded_offers(const Candidate& parent,
                                                const PerfState& parent_state,
                                                const KernelSpec& spec, bool source_only,
                                                const TargetGpu& gpu,
                                                const std::set<std::string>& seen);

// One child per offered technique, in the techniques' order: the first it argues for (else
// its first), never `chosen` itself. Asked ahead, it is the child pick_child takes for that
// technique, so asking for one child per technique covers every choice the next step can make
// from these offers (one lane; a faster child's own profile may change what it is offered).
std::vector<Candidate> lead_children(const std::map<std::string, Proposal>& offered,
                                     const Candidate& chosen);

// Every child offered, each technique's lead child first (lead_children), then the rest: what
// to build ahead when the parent's state, which decides some leads, is not known yet.
std::vector<Candidate> every_child(const std::map<std::string, Proposal>& offered);

// What to build ahead while `chosen` is measured: the lead children of `siblings` (techniques
// not yet tried at the parent: `chosen` is not faster and the rollout goes on) taken in turn
// with those of `if_faster` (`chosen`'s own offers: it becomes the parent), then those of
// `if_rollout_ends` (the best's offers, every technique: a new rollout starts there); each child
// once; at most `limit`.
std::vector<Candidate> build_ahead_list(const std::map<std::string, Proposal>& siblings,
                                        const std::map<std::string, Proposal>& if_faster,
                                        const std::map<std::string, Proposal>& if_rollout_ends,
                                        const Candidate& chosen, int limit);

// The child a step evaluates, and why when the proposal argued for it.
struct PickedChild {
  const Candidate* child;  // into the proposal
  std::string because;
};

// Drawn among the children `p` argues for while any is on offer, else among all. Where some of
// those were `asked_ahead` (handed to Evaluator::prefetch by the step before, so most likely
// built by now), the draw is among them, and the GPU starts on one without waiting for a
// compile. What was asked is the search's own decision, not how fast a build ran, so the same
// seed still takes the same steps. `asked_ahead` may be empty.
PickedChild pick_child(const Proposal& p, RandomSource& random,
                       const std::function<bool(const Candidate&)>& asked_ahead = {});

}  // namespace kblaster
