#include "search/embedded_offer.h"

#include <algorithm>
#include <set>

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

std::vector<Candidate> lead_children(const std::map<std::string, Proposal>& offered,
                                     const Candidate& chosen) {
  std::vector<Candidate> out;
  const std::string fp = chosen.fingerprint();
  for (const auto& [t, p] : offered) {
    const Candidate* first = nullptr;   // the first besides `chosen`
    const Candidate* argued = nullptr;  // the first it argues for besides `chosen`
    for (const Candidate& c : p.children) {
      if (c.fingerprint() == fp) continue;
      if (!first) first = &c;
      if (std::find(p.preferred.begin(), p.preferred.end(), c.fingerprint()) != p.preferred.end()) {
        argued = &c;
        break;
      }
    }
    if (argued || first) out.push_back(argued ? *argued : *first);
  }
  return out;
}

std::vector<Candidate> every_child(const std::map<std::string, Proposal>& offered) {
  std::vector<Candidate> out = lead_children(offered, Candidate{});
  std::set<std::string> listed;
  for (const Candidate& c : out) listed.insert(c.fingerprint());
  for (const auto& [t, p] : offered)
    for (const Candidate& c : p.children)
      if (listed.insert(c.fingerprint()).second) out.push_back(c);
  return out;
}

std::vector<Candidate> build_ahead_list(const std::map<std::string, Proposal>& siblings,
                                        const std::map<std::string, Proposal>& if_faster,
                                        const std::map<std::string, Proposal>& if_rollout_ends,
                                        const Candidate& chosen, int limit) {
  const auto stay = lead_children(siblings, chosen);
  const auto move = lead_children(if_faster, chosen);
  std::vector<Candidate> out;
  std::set<std::string> listed;
  auto add = [&](const Candidate& c) {
    if (static_cast<int>(out.size()) < limit && listed.insert(c.fingerprint()).second)
      out.push_back(c);
  };
  for (std::size_t i = 0; i < stay.size() || i < move.size(); ++i) {
    if (i < stay.size()) add(stay[i]);
    if (i < move.size()) add(move[i]);
  }
  for (const Candidate& c : lead_children(if_rollout_ends, chosen)) add(c);
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
