#include "search/embedded_offer.h"

#include <algorithm>

namespace kblaster {

// The techniques that propose at least one child for `parent` not evaluated yet
// (nor the baseline: a tunable set back to its first value is not new), and those children.
std::map<std::string, Proposal> embedded_offers(const Candidate& parent,
                                                const PerfState& parent_state,
                                                const KernelSpec& spec, bool source_only,
                                                const TargetGpu& gpu,
                                                const std::set<std::string>& seen) {
  std::map<std::string, Proposal> out;
  for (const auto& t : embedded_techniques()) {
    if (source_only && !rewrites_source_only(t)) continue;
    Proposal p = propose(t, parent, spec, gpu, parent_state.launch);
    std::erase_if(p.children, [&](const Candidate& c) { return seen.count(c.fingerprint()); });
    if (!p.children.empty()) out.emplace(t, std::move(p));
  }
  return out;
}

// What the next step may evaluate if this one is not faster: for each offered
// technique the child it argues for first (else its first), then the remaining
// children; never `chosen` itself.
std::vector<Candidate> likely_next(const std::map<std::string, Proposal>& offered,
                                   const Candidate& chosen, int limit) {
  std::vector<Candidate> out;
  const std::string fp = chosen.fingerprint();
  auto lead = [](const Proposal& p) {
    for (std::size_t i = 0; i < p.children.size(); ++i)
      if (std::find(p.preferred.begin(), p.preferred.end(), p.children[i].fingerprint()) !=
          p.preferred.end())
        return i;
    return std::size_t{0};
  };
  for (int round = 0; round < 2; ++round)
    for (const auto& [t, p] : offered) {
      const std::size_t first = lead(p);
      for (std::size_t i = 0; i < p.children.size(); ++i) {
        if (static_cast<int>(out.size()) >= limit) return out;
        if ((round == 0) != (i == first) || p.children[i].fingerprint() == fp) continue;
        out.push_back(p.children[i]);
      }
    }
  return out;
}

std::vector<Candidate> build_ahead_list(const std::map<std::string, Proposal>& siblings,
                                        const std::map<std::string, Proposal>& if_faster,
                                        const Candidate& chosen, int limit) {
  const auto stay = likely_next(siblings, chosen, limit);
  const auto move = likely_next(if_faster, chosen, limit);
  std::vector<Candidate> out;
  for (std::size_t i = 0; static_cast<int>(out.size()) < limit; ++i) {
    if (i >= stay.size() && i >= move.size()) break;
    if (i < stay.size()) out.push_back(stay[i]);
    if (i < move.size() && static_cast<int>(out.size()) < limit) out.push_back(move[i]);
  }
  return out;
}

PickedChild pick_child(const Proposal& p, RandomSource& random,
                       const std::function<bool(const Candidate&)>& asked_ahead) {
  std::vector<const Candidate*> argued;
  for (const Candidate& c : p.children)
    if (std::find(p.preferred.begin(), p.preferred.end(), c.fingerprint()) != p.preferred.end())
      argued.push_back(&c);
  std::vector<const Candidate*> pool = argued;
  if (pool.empty())
    for (const Candidate& c : p.children) pool.push_back(&c);
  if (asked_ahead) {
    std::vector<const Candidate*> ahead;
    for (const Candidate* c : pool)
      if (asked_ahead(*c)) ahead.push_back(c);
    if (!ahead.empty()) pool = std::move(ahead);
  }
  return {pool[random.index(pool.size())], argued.empty() ? std::string() : p.because};
}

}  // namespace kblaster
