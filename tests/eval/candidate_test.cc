// A candidate's identity: stable, and sensitive to everything that is built.
#include "eval/candidate.h"

#include <gtest/gtest.h>

#include <functional>

#include "core/stable_hash.h"

namespace kblaster {
namespace {

TEST(StableHash, IsFnv1a64AsHex) {
  EXPECT_EQ(stable_hash(""), "cbf29ce484222325");
  EXPECT_EQ(stable_hash("a"), "af63dc4c8601ec8c");
}

TEST(CandidateFingerprint, ChangesWithEverythingThatIsBuilt) {
  Candidate base;
  base.source = "__global__ void k() {}";
  const std::string id = base.fingerprint();
  Candidate c = base;
  c.path = {"fast_math"}, c.changes = {"described"};
  EXPECT_EQ(c.fingerprint(), id) << "how it was reached is not what is built";
  for (auto edit : std::vector<std::function<void(Candidate&)>>{
           [](Candidate& x) { x.source += " "; },
           [](Candidate& x) { x.extra_flags.push_back("-use_fast_math"); },
           [](Candidate& x) { x.arch = "sm_90a"; }, [](Candidate& x) { x.macros["BLOCK"] = "16"; },
           [](Candidate& x) { x.launcher_args["block_size"] = 256; }}) {
    Candidate d = base;
    edit(d);
    EXPECT_NE(d.fingerprint(), id);
  }
}

}  // namespace
}  // namespace kblaster
