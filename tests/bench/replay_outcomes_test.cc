// kblaster-replay's outcome table (bench/replay): a tiny synthetic result.json for a
// real example kernel, rebuilt through the real appliers.
#include <gtest/gtest.h>

#include <cmath>

#include "example_kernels.h"
#include "recorded_outcomes.h"
#include "replay_evaluator.h"
#include "test_paths.h"

namespace kblaster {
namespace {

constexpr const char* kRestrict =
    "added __restrict__ to 2 pointer parameters of softmax_slow_kernel (2)";
constexpr const char* kFastMath =
    "built with -use_fast_math (kept only if it verifies at the kernel's tolerance)";

nlohmann::json step(int rollout, int depth, const std::string& technique, const std::string& change,
                    const std::string& outcome, double speedup) {
  return {{"rollout", rollout},
          {"step", depth},
          {"technique", technique},
          {"change", change},
          {"outcome", outcome},
          {"speedup_vs_parent", speedup},
          {"state", "launch.grid_undersized"},
          {"best_speedup_after", 1.0}};
}

class ReplayOutcomesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    spec = testing::example_kernel("softmax_slow");
    ASSERT_NE(spec, nullptr);
    outcomes.emplace(*spec, testing::read_text(testing::examples_dir() / spec->source),
                     TargetGpu{"sm_90", true});
    const nlohmann::json result = {
        {"kernel", "softmax_slow"},
        {"baseline_state", "launch.grid_undersized"},
        {"evaluations", 4},
        {"seconds", 20.0},
        {"steps",
         {step(1, 0, "restrict_pointers", kRestrict, "faster", 1.25),
          step(1, 1, "fast_math", kFastMath, "same", 1.01),
          step(1, 2, "fast_math", "built with -use_slow_math", "same", 1.0),
          step(2, 0, "target_native_arch", "built for sm_90a (on Hopper)", "slower", 0.9)}}};
    outcomes->add_run(result, "cold_softmax_slow/softmax_slow/result.json");
  }
  // The child of `parent` that `technique` proposes with the change `change`.
  Candidate child(const Candidate& parent, const std::string& technique,
                  const std::string& change) {
    for (const auto& c : propose(technique, parent, *spec, {"sm_90", true}).children)
      if (c.changes.back() == change) return c;
    ADD_FAILURE() << technique << " proposes no child with change " << change;
    return parent;
  }

  const KernelSpec* spec = nullptr;
  std::optional<KernelOutcomes> outcomes;
};

TEST_F(ReplayOutcomesTest, AFasterStepsChildGetsTheChainedRelativeTime) {
  const Candidate base = outcomes->baseline();
  const Candidate restricted = child(base, "restrict_pointers", kRestrict);
  const Candidate fast = child(restricted, "fast_math", kFastMath);
  const auto* r = outcomes->find(candidate_key(restricted));
  ASSERT_NE(r, nullptr);
  EXPECT_NEAR(r->log_time(), -std::log(1.25), 1e-12);
  const auto* f = outcomes->find(candidate_key(fast));
  ASSERT_NE(f, nullptr);
  EXPECT_NEAR(f->log_time(), -std::log(1.25) - std::log(1.01), 1e-12);  // from the new parent
  EXPECT_EQ(outcomes->find(candidate_key(base))->state, "launch.grid_undersized");
  // Rollout 2 starts from the best (the restricted child); its sm_90a step matched loosely.
  const Candidate native = child(restricted, "target_native_arch", "built for sm_90a");
  ASSERT_NE(outcomes->find(candidate_key(native)), nullptr);
  EXPECT_NEAR(outcomes->find(candidate_key(native))->log_time(), -std::log(1.25) - std::log(0.9),
              1e-12);
}

TEST_F(ReplayOutcomesTest, AnUnmatchedChangeIsCounted) {
  const auto& c = outcomes->counts();
  EXPECT_EQ(c.steps, 4);
  EXPECT_EQ(c.exact, 2);
  EXPECT_EQ(c.loose, 1);
  EXPECT_EQ(c.unmatched, 1);
  ASSERT_EQ(c.unmatched_examples.size(), 1u);
  EXPECT_EQ(c.unmatched_examples[0], "fast_math: built with -use_slow_math");
  EXPECT_DOUBLE_EQ(outcomes->seconds_per_evaluation(), 5.0);
}

TEST_F(ReplayOutcomesTest, TheReplayEvaluatorAnswersFromTheTable) {
  SimulatedClock clock;
  ReplayEvaluator evaluator(*outcomes, clock, {0.005, 0.02, 1});
  const Candidate base = outcomes->baseline();
  const Candidate restricted = child(base, "restrict_pointers", kRestrict);
  auto e = evaluator.evaluate(base, restricted);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->outcome, StepOutcome::faster);
  EXPECT_NEAR(e->ratio, 0.8, 0.03);
  EXPECT_DOUBLE_EQ(clock.now_seconds(), 5.0);
  EXPECT_EQ(evaluator.coverage().recorded, 1);
  auto s = evaluator.state_of(restricted);  // not recorded as a parent: its ancestor's
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->key, "launch.grid_undersized");
}

// A parent's launch comes from the ncu CSV its run kept (profiles/<fingerprint>.csv),
// here softmax_slow's baseline as the H200 profiled it: 64 blocks on 132 SMs.
TEST_F(ReplayOutcomesTest, AParentGetsTheLaunchItsRunProfiled) {
  testing::TempDir dir;
  const Candidate base = outcomes->baseline();
  dir.write("cold_softmax_slow/softmax_slow/profiles/" + base.fingerprint() + ".csv",
            testing::read_text(testing::source_dir() /
                               "bench/results/2026-11-30-h200/decisive/ablation/seed_31/"
                               "cold_softmax_slow/softmax_slow/profiles/2ca2494106dcd519.csv"));
  KernelOutcomes profiled(*spec, base.source, TargetGpu{"sm_90", true});
  const nlohmann::json result = {
      {"baseline_state", "launch.grid_undersized"},
      {"steps", {step(1, 0, "restrict_pointers", kRestrict, "faster", 1.25)}}};
  profiled.add_run(result, (dir.path() / "cold_softmax_slow/softmax_slow/result.json").string());
  EXPECT_EQ(profiled.counts().parents_with_launch, 1);

  SimulatedClock clock;
  ReplayEvaluator evaluator(profiled, clock, {0.005, 0.02, 1});
  auto s = evaluator.state_of(base);
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE(s->launch.grid_size && s->launch.sm_count);
  EXPECT_DOUBLE_EQ(*s->launch.grid_size, 64.0);
  EXPECT_DOUBLE_EQ(*s->launch.sm_count, 132.0);
  // A candidate without a CSV of its own has no launch: a shape changes with the block.
  auto child_state = evaluator.state_of(child(base, "restrict_pointers", kRestrict));
  ASSERT_TRUE(child_state.ok());
  EXPECT_FALSE(child_state->launch.grid_size.has_value());
}

}  // namespace
}  // namespace kblaster
