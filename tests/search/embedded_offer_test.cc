// What a search step builds ahead and which child it takes (issue 21 B2: the GPU must not wait
// for compiles the search could have started, or taken, earlier). Which child was asked ahead is
// the search's own decision, so these draws, like the search's, depend on the seed alone.
#include "search/embedded_offer.h"

#include <gtest/gtest.h>

#include <set>

namespace kblaster {
namespace {

Candidate candidate(const std::string& technique, const std::string& change) {
  Candidate c;
  c.source = "// " + technique + " " + change + "\n";
  c.path = {technique};
  c.changes = {change};
  return c;
}

Proposal offer(const std::string& technique, std::initializer_list<const char*> changes,
               std::size_t argued = 0) {
  Proposal p;
  for (const char* change : changes) p.children.push_back(candidate(technique, change));
  for (std::size_t i = 0; i < argued && i < p.children.size(); ++i)
    p.preferred.push_back(p.children[i].fingerprint());
  if (argued) p.because = "the profile argues for it";
  return p;
}

std::vector<std::string> changes_of(const std::vector<Candidate>& cs) {
  std::vector<std::string> out;
  for (const auto& c : cs) out.push_back(c.changes.back());
  return out;
}

TEST(LeadChildren, OnePerTechniqueTheOneItArguesForFirstNeverTheChosen) {
  const std::map<std::string, Proposal> offered = {{"a", offer("a", {"a1", "a2"})},
                                                   {"b", offer("b", {"b1", "b2", "b3"}, 2)},
                                                   {"c", offer("c", {"c1"})}};
  EXPECT_EQ(changes_of(lead_children(offered, Candidate{})),
            (std::vector<std::string>{"a1", "b1", "c1"}));
  EXPECT_EQ(changes_of(lead_children(offered, offered.at("b").children[0])),
            (std::vector<std::string>{"a1", "b2", "c1"}))
      << "the chosen child is being measured; the next it argues for follows";
  EXPECT_EQ(changes_of(lead_children(offered, offered.at("c").children[0])),
            (std::vector<std::string>{"a1", "b1"}));
}

TEST(EveryChild, EachTechniquesLeadFirstThenTheRestEachOnce) {
  const std::map<std::string, Proposal> offered = {{"a", offer("a", {"a1", "a2"})},
                                                   {"b", offer("b", {"b1", "b2", "b3"}, 2)}};
  EXPECT_EQ(changes_of(every_child(offered)),
            (std::vector<std::string>{"a1", "b1", "a2", "b2", "b3"}));
  EXPECT_TRUE(every_child({}).empty());
}

TEST(BuildAheadList, OneChildPerTechniqueOnEveryBranchTheNextStepCanTake) {
  const std::map<std::string, Proposal> siblings = {{"a", offer("a", {"a1", "a2"})},
                                                    {"b", offer("b", {"b1"})}};
  const std::map<std::string, Proposal> if_faster = {{"c", offer("c", {"c1", "c2", "c3"})},
                                                     {"d", offer("d", {"d1"})}};
  std::map<std::string, Proposal> if_rollout_ends = siblings;  // the best is the parent
  if_rollout_ends.emplace("e", offer("e", {"e1"}));            // tried in this rollout
  const Candidate chosen = siblings.at("a").children[0];
  EXPECT_EQ(changes_of(build_ahead_list(siblings, if_faster, if_rollout_ends, chosen, 32)),
            (std::vector<std::string>{"a2", "c1", "b1", "d1", "e1"}))
      << "in turn: the parent stays (never the chosen child itself), the chosen child is "
         "faster; then what a new rollout may take at the best, each child once";
  EXPECT_EQ(changes_of(build_ahead_list(siblings, if_faster, if_rollout_ends, chosen, 3)),
            (std::vector<std::string>{"a2", "c1", "b1"}));
  EXPECT_TRUE(build_ahead_list({}, {}, {}, chosen, 8).empty());
}

TEST(PickChild, AChildAskedAheadIsTakenBeforeOneNeverAsked) {
  const Proposal p = offer("tile", {"t32", "t64", "t128"}, 3);
  const std::string ready = p.children[2].fingerprint();
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    RandomSource random(seed);
    const auto picked =
        pick_child(p, random, [&](const Candidate& c) { return c.fingerprint() == ready; });
    EXPECT_EQ(picked.child->changes.back(), "t128") << "seed " << seed;
    EXPECT_EQ(picked.because, "the profile argues for it");
  }
}

TEST(PickChild, WithNoneAskedAheadTheDrawIsAmongAllItArguesFor) {
  const Proposal p = offer("tile", {"t32", "t64", "t128", "t256"}, 3);
  const auto none = [](const Candidate&) { return false; };
  std::set<std::string> drawn;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    RandomSource asked(seed), not_asked(seed);
    const std::string change = pick_child(p, asked, none).child->changes.back();
    drawn.insert(change);
    EXPECT_EQ(change, pick_child(p, not_asked).child->changes.back())
        << "with nothing asked ahead, the same draw as without the question";
  }
  EXPECT_EQ(drawn, (std::set<std::string>{"t32", "t64", "t128"})) << "never t256: not argued for";
}

TEST(PickChild, AChildAskedAheadThatTheProposalDoesNotArgueForIsNotPreferred) {
  const Proposal p = offer("tile", {"t32", "t64"}, 1);  // argues for t32 only
  const std::string unargued = p.children[1].fingerprint();
  RandomSource random(3);
  EXPECT_EQ(pick_child(p, random, [&](const Candidate& c) { return c.fingerprint() == unargued; })
                .child->changes.back(),
            "t32");
}

}  // namespace
}  // namespace kblaster
