// The MAIC-RL loop against a scripted Evaluator (it records every candidate it
// is sent), a real SQLite KB seeded with the real catalogue, and the real
// embedded appliers on the real softmax_slow example.
#include "search/search_loop.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "eval/fake_harness_runner.h"
#include "example_kernels.h"
#include "kb/seed.h"
#include "search/search_setup.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using testing::read_text;

// Answers by the technique the child's last change came from; records everything.
class ScriptedEvaluator final : public Evaluator {
 public:
  std::vector<Candidate> evaluated;
  std::vector<Candidate> prefetched;
  std::vector<std::vector<Candidate>> prefetch_calls;
  // For each child evaluated, the ask before the one its own step made: what the search had
  // asked ahead when it picked the child.
  std::vector<std::vector<Candidate>> asked_when_picked;
  std::vector<std::string> calls;  // "prefetch", "state_of", "evaluate", in order
  int profiles = 0;
  LaunchShape launch;  // what the grid_undersized profile reports
  // What it reports instead for a candidate with __restrict__ pointers, when set: a faster
  // child's profile that argues for another block size than its parent's did.
  std::optional<LaunchShape> restricted_launch;
  void prefetch(const std::vector<Candidate>& next) override {
    calls.push_back("prefetch");
    prefetch_calls.push_back(next);
    prefetched.insert(prefetched.end(), next.begin(), next.end());
  }
  Result<Evaluation> evaluate(const Candidate& parent, const Candidate& child) override {
    (void)parent;
    calls.push_back("evaluate");
    evaluated.push_back(child);
    asked_when_picked.push_back(prefetch_calls.size() >= 2 ? prefetch_calls.end()[-2]
                                                           : std::vector<Candidate>{});
    Evaluation e;
    const std::string& t = child.path.back();
    if (t == "launch_geometry_tuning" && child.source.find("kThreads = 32;") != std::string::npos) {
      e.outcome = StepOutcome::faster, e.log_speedup = std::log(1.8);
    } else if (t == "launch_geometry_tuning") {
      e.outcome = StepOutcome::slower, e.log_speedup = std::log(0.5);  // the other block sizes
    } else if (t == "restrict_pointers") {
      e.outcome = StepOutcome::faster, e.log_speedup = std::log(1.05);
    } else if (t == "fast_math") {
      e.outcome = StepOutcome::verify_failure, e.detail = "wrong_result: `out`[3] …";
    } else if (t == "launch_bounds") {
      e.outcome = StepOutcome::compile_failure, e.detail = "error: …";
    } else {
      // SAME with a large point estimate: it must not count as progress.
      e.outcome = StepOutcome::same, e.log_speedup = 0.3;
    }
    return e;
  }
  Result<PerfState> state_of(const Candidate& c) override {
    calls.push_back("state_of");
    ++profiles;
    PerfState s;
    s.key = c.source.find("kThreads = 32;") != std::string::npos
                ? "latency.memory_dependency_stalls"
                : "launch.grid_undersized";
    s.bottleneck = s.key.substr(0, s.key.find('.'));
    s.explanation = "scripted";
    if (s.key == "launch.grid_undersized")
      s.launch = restricted_launch && c.source.find("__restrict__") != std::string::npos
                     ? *restricted_launch
                     : launch;
    return s;
  }
};

class SearchLoopTest : public ::testing::Test, protected testing::SearchSetup {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(set_up()); }
  Result<SearchResult> search() {
    return run_search(baseline, *spec, evaluator, *store, catalogue, options, clock, progress);
  }

  void expect_steps_asked_ahead(std::optional<LaunchShape> restricted_launch,
                                const std::string& faster_technique, int& after_a_faster_child);

  ScriptedEvaluator evaluator;
  testing::FakeClock clock{1.0};
  std::ostringstream progress;
};

TEST_F(SearchLoopTest, FindsTheVerifiedSpeedupAndKeepsItsPath) {
  evaluator.launch = {64.0, 132.0};  // as profiled on the H200
  auto r = search();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_LE(r->steps.size(), 12u) << "breadth 4 x depth 3";
  EXPECT_NEAR(std::exp(r->best_log_speedup), 1.8 * (r->best.path.size() > 1 ? 1.05 : 1.0), 0.06)
      << progress.str();
  EXPECT_THAT(r->best.path, ::testing::Contains("launch_geometry_tuning")) << progress.str();
  EXPECT_THAT(r->best.source, ::testing::HasSubstr("kThreads = 32;"));
  EXPECT_EQ(r->baseline_state, "launch.grid_undersized");
  EXPECT_EQ(r->best_state, "latency.memory_dependency_stalls");
  EXPECT_TRUE(r->soft_verification.empty());
  EXPECT_EQ(r->best_so_far.size(), r->steps.size()) << "one entry per evaluation";
  EXPECT_NEAR(*std::max_element(r->best_so_far.begin(), r->best_so_far.end()), r->best_log_speedup,
              1e-12)
      << "only verified FASTER steps move the best";
  // Every child the evaluator saw came from an applier (one change each), and none twice.
  std::set<std::string> fingerprints = {baseline.fingerprint()};
  for (const auto& c : evaluator.evaluated) {
    EXPECT_EQ(c.changes.size(), c.path.size());
    EXPECT_TRUE(fingerprints.insert(c.fingerprint()).second)
        << "evaluated twice: " << c.changes.back();
  }
  // Each step names the child it evaluated, in order (result.json's steps[].candidate).
  ASSERT_EQ(r->steps.size(), evaluator.evaluated.size());
  for (std::size_t i = 0; i < r->steps.size(); ++i)
    EXPECT_EQ(r->steps[i].candidate, evaluator.evaluated[i].fingerprint());
  EXPECT_THAT(progress.str(), ::testing::HasSubstr("rollout 1/4 step 1: chose "));
  // While a child is measured, children of other techniques are handed over to build ahead.
  ASSERT_FALSE(evaluator.prefetched.empty());
  for (const auto& c : evaluator.prefetched) EXPECT_EQ(c.path.size(), c.changes.size());
}

// Issue 21 B2: compiles of 2-6 s left the GPU idle when the search moved to a faster child,
// whose own children nobody had started to build.
TEST_F(SearchLoopTest, WhileAChildIsMeasuredWhatFollowsEitherWayIsBuiltAhead) {
  evaluator.launch = {64.0, 132.0};
  auto r = search();
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_GE(evaluator.calls.size(), 3u);
  EXPECT_EQ(evaluator.calls[0], "prefetch")
      << "the first step's children compile while the baseline is profiled";
  EXPECT_EQ(evaluator.calls[1], "state_of");
  EXPECT_EQ(evaluator.calls[2], "prefetch") << "once the profile is known, the leads it argues for";
  for (const auto& call : {evaluator.prefetch_calls.at(0), evaluator.prefetch_calls.at(1)}) {
    ASSERT_FALSE(call.empty());
    for (const Candidate& c : call) EXPECT_EQ(c.path.size(), 1u) << "children of the baseline";
  }
  EXPECT_GT(evaluator.prefetch_calls.at(0).size(), evaluator.prefetch_calls.at(1).size())
      << "before the profile, every child: the state decides which one a technique argues for";
  // The first step's prefetch (the third call) holds children of the child being measured,
  // which the next step takes if it is faster, beside its siblings.
  ASSERT_GE(evaluator.prefetch_calls.size(), 3u);
  ASSERT_FALSE(evaluator.evaluated.empty());
  const Candidate& first = evaluator.evaluated.front();
  bool sibling = false, grandchild = false;
  for (const Candidate& c : evaluator.prefetch_calls.at(2)) {
    EXPECT_NE(c.fingerprint(), first.fingerprint()) << "never the child being measured";
    if (c.path.size() == 1) sibling = true;
    if (c.path.size() == 2 && c.changes.front() == first.changes.front()) grandchild = true;
  }
  EXPECT_TRUE(sibling) << "children of the same parent, in case it is not faster";
  EXPECT_TRUE(grandchild) << "children of the child, in case it is";
  EXPECT_LE(evaluator.prefetch_calls.at(2).size(), static_cast<std::size_t>(options.prefetch));
}

// Issue 21 B2: a child the step before did not ask for compiles while the GPU waits (9 s on
// the H200 for a cub kernel). One child per technique, on every branch the search can take
// next, covers each step, whatever the seed draws: the parent stays, the child measured becomes
// the parent, or the rollout ends and the next starts from the best.
// Searches seeds 1 to 24, expecting every child each step took to have been asked ahead by the
// step before; `restricted_launch` is ScriptedEvaluator's. Returns the steps that took launch
// geometry right after a FASTER step of `faster_technique` in `after_a_faster_child`.
void SearchLoopTest::expect_steps_asked_ahead(std::optional<LaunchShape> restricted_launch,
                                              const std::string& faster_technique,
                                              int& after_a_faster_child) {
  after_a_faster_child = 0;
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    SCOPED_TRACE("search seed " + std::to_string(seed));
    evaluator = ScriptedEvaluator{};
    evaluator.launch = {64.0, 132.0};
    evaluator.restricted_launch = restricted_launch;
    progress.str("");
    open_store("kb-" + std::to_string(seed) + ".sqlite");  // cold, as each search's first run
    options.budget = {6, 4, 1e9, 0, 0.0};  // rollouts end by depth too, not only by no progress
    options.seed = seed;
    auto r = search();
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_GE(evaluator.evaluated.size(), 6u);
    ASSERT_GE(evaluator.prefetch_calls.size(), evaluator.evaluated.size() + 1);
    bool restarted = false;
    for (std::size_t i = 0; i < evaluator.evaluated.size(); ++i) {
      const auto& asked = evaluator.asked_when_picked[i];
      if (i > 0 && r->steps[i - 1].evaluation.outcome == StepOutcome::faster &&
          r->steps[i - 1].technique == faster_technique &&
          r->steps[i].technique == "launch_geometry_tuning")
        ++after_a_faster_child;
      const std::string fp = evaluator.evaluated[i].fingerprint();
      EXPECT_TRUE(std::any_of(asked.begin(), asked.end(),
                              [&](const Candidate& c) { return c.fingerprint() == fp; }))
          << "step " << i + 1 << " took " << evaluator.evaluated[i].changes.back()
          << ", which the step before did not build ahead\n"
          << progress.str();
      restarted = restarted || (i > 0 && r->steps[i].rollout != r->steps[i - 1].rollout);
    }
    EXPECT_TRUE(restarted) << "no step opened a rollout, so that branch went untested";
  }
}

TEST_F(SearchLoopTest, EveryChildTheSearchTakesWasAskedAheadByTheStepBefore) {
  int after_a_faster_child = 0;
  expect_steps_asked_ahead(std::nullopt, "launch_geometry_tuning", after_a_faster_child);
  // A FASTER child moves to a new state, whose profile decides what launch geometry argues for.
  EXPECT_GT(after_a_faster_child, 0) << "no seed took launch geometry right after a FASTER step";
}

// A faster child's own profile can argue for another block size than its parent's did: here the
// __restrict__ child reports 128 blocks, so 64 threads fill the 132 SMs, where the baseline's 64
// blocks argued for 32. What the step before asked under the parent's state is then the wrong
// child; the search asks again once the faster child's profile is in.
TEST_F(SearchLoopTest, AFasterChildsChildrenAreAskedAgainUnderItsOwnProfile) {
  int after_a_faster_child = 0;
  expect_steps_asked_ahead(LaunchShape{128.0, 132.0}, "restrict_pointers", after_a_faster_child);
  EXPECT_GT(after_a_faster_child, 0)
      << "no seed took launch geometry right after a FASTER __restrict__ step";
}

// optimize hands a kernel's first children to its evaluator while the kernel before it is
// measured: they must be the very candidates the search then asks for first, or the early
// builds are wasted.
TEST_F(SearchLoopTest, TheFirstChildrenBuiltBeforeTheSearchAreTheOnesItAsksForFirst) {
  evaluator.launch = {64.0, 132.0};
  options.only_techniques = {"restrict_pointers", "launch_geometry_tuning", "fast_math"};
  options.prefetch = 5;
  const std::vector<Candidate> early = first_children(baseline, *spec, options);
  ASSERT_EQ(early.size(), 5u) << "cut to the prefetch limit";
  auto r = search();
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_FALSE(evaluator.prefetch_calls.empty());
  ASSERT_EQ(evaluator.calls.front(), "prefetch") << "asked before the baseline's profile";
  const std::vector<Candidate>& asked = evaluator.prefetch_calls.front();
  ASSERT_EQ(asked.size(), early.size());
  for (std::size_t i = 0; i < early.size(); ++i)
    EXPECT_EQ(asked[i].fingerprint(), early[i].fingerprint()) << i;
  for (const Candidate& c : early) EXPECT_TRUE(options.only_techniques.contains(c.path.back()));
}

TEST_F(SearchLoopTest, OnlyTheTechniquesAskedForAreBuiltAhead) {
  evaluator.launch = {64.0, 132.0};
  options.only_techniques = {"restrict_pointers", "launch_geometry_tuning"};
  auto r = search();
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_FALSE(evaluator.prefetched.empty());
  for (const Candidate& c : evaluator.prefetched)
    EXPECT_TRUE(options.only_techniques.contains(c.path.back())) << c.path.back();
}

TEST_F(SearchLoopTest, LaunchGeometryTakesTheBlockSizeTheProfileArguesFor) {
  evaluator.launch = {64.0, 132.0};  // softmax_slow's 8192 rows / 128 threads on an H200
  options.choice.explore_share = 0.0;
  options.choice.draws = 0;  // the catalogue's best guess for grid_undersized
  options.budget = {1, 1, 1e9, 0, 0.01};
  auto r = search();
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(evaluator.evaluated.size(), 1u);
  EXPECT_THAT(evaluator.evaluated[0].source, ::testing::HasSubstr("kThreads = 32;"));
  EXPECT_THAT(progress.str(),
              ::testing::HasSubstr("set kThreads from 128 to 32 (the grid has 64 blocks for 132 "
                                   "SMs; this gives about 256)"));
}

TEST_F(SearchLoopTest, EveryStepFailuresIncludedIsRecordedInTheKbWithALesson) {
  options.choice.explore_share = 1.0;  // try everything untried first
  auto r = search();
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto trajectories = store->trajectory_count();
  ASSERT_TRUE(trajectories.ok());
  EXPECT_GE(*trajectories, 1);
  std::int64_t attempts = 0, compile_failures = 0, verify_failures = 0;
  for (const auto& state : {"launch.grid_undersized", "latency.memory_dependency_stalls"})
    for (const auto& t : embedded_techniques()) {
      auto s = store->stats(state, t, "sm_90");
      ASSERT_TRUE(s.ok());
      attempts += s->attempts, compile_failures += s->compile_failures,
          verify_failures += s->verify_failures;
    }
  EXPECT_EQ(attempts, static_cast<std::int64_t>(r->steps.size()));
  int failed_steps = 0;
  for (const auto& s : r->steps) failed_steps += !is_measured(s.evaluation.outcome);
  EXPECT_GT(failed_steps, 0) << "exploring everything reaches fast_math and launch_bounds";
  EXPECT_EQ(compile_failures + verify_failures, failed_steps);
  const auto& first = r->steps.front();
  auto lessons = store->lessons(first.state, first.technique);
  ASSERT_TRUE(lessons.ok());
  ASSERT_FALSE(lessons->empty());
  EXPECT_THAT(lessons->front().text, ::testing::HasSubstr(first.state + " / " + first.technique));
  // A failed step's lesson carries its reason.
  for (const auto& s : r->steps) {
    if (s.evaluation.outcome != StepOutcome::verify_failure) continue;
    auto l = store->lessons(s.state, s.technique);
    ASSERT_TRUE(l.ok());
    ASSERT_FALSE(l->empty());
    EXPECT_THAT(l->back().text, ::testing::HasSubstr("Reason: wrong_result"));
  }
}

TEST_F(SearchLoopTest, ASlowerChildIsDiscardedAndEarnsNoReward) {
  options.budget = {6, 1, 1e9, 0, 0.01};  // six one-step rollouts from the baseline
  options.choice.explore_share = 0.0;
  options.choice.draws = 0;  // launch geometry: the catalogue's best for this state
  auto r = search();
  ASSERT_TRUE(r.ok()) << r.error().message;
  int slower = 0, faster = 0;
  for (const auto& s : r->steps) {
    if (s.technique != "launch_geometry_tuning") continue;
    slower += s.evaluation.outcome == StepOutcome::slower;
    faster += s.evaluation.outcome == StepOutcome::faster;
  }
  ASSERT_GT(slower, 0) << progress.str();
  std::int64_t recorded_slower = 0;
  double sum = 0.0;
  for (const auto& state : {"launch.grid_undersized", "latency.memory_dependency_stalls"}) {
    auto stats = store->stats(state, "launch_geometry_tuning", "sm_90");
    ASSERT_TRUE(stats.ok());
    recorded_slower += stats->slower;
    sum += stats->sum_log_speedup;
  }
  EXPECT_EQ(recorded_slower, slower);
  // Only the kept steps add to the sum: the slower children count as measured zeros.
  EXPECT_NEAR(sum, faster * std::log(1.8), 1e-9);
}

TEST_F(SearchLoopTest, ASourceOnlySearchNeverChangesBuildSettings) {
  options.source_only = true;
  options.choice.explore_share = 1.0;  // try everything untried first
  auto r = search();
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_FALSE(evaluator.evaluated.empty());
  std::set<std::string> techniques;
  for (const auto& c : evaluator.evaluated) {
    EXPECT_TRUE(c.extra_flags.empty() && c.macros.empty() && c.launcher_args.empty() &&
                c.arch.empty())
        << c.changes.back();
    techniques.insert(c.path.back());
  }
  for (const auto& t : techniques) EXPECT_TRUE(rewrites_source_only(t)) << t;
  EXPECT_TRUE(techniques.count("launch_geometry_tuning")) << progress.str();
}

TEST_F(SearchLoopTest, AWarmKbSteersTheFirstChoice) {
  options.choice.explore_share = 0.0;
  options.choice.draws = 0;  // the best prediction, always
  // What a cold KB picks first, from the catalogue's priors alone.
  ASSERT_NO_FATAL_FAILURE(open_store("cold.sqlite"));
  auto cold = search();
  ASSERT_TRUE(cold.ok()) << cold.error().message;
  ASSERT_FALSE(cold->steps.empty());
  // Train another KB where a technique the cold KB does not pick first paid off in this state
  // on this arch, and the cold pick did not: the warm search must follow the evidence.
  const std::string trained = "launch_bounds";
  ASSERT_NE(cold->steps.front().technique, trained) << "the test needs a pick the KB changes";
  ASSERT_NO_FATAL_FAILURE(open_store("warm.sqlite"));
  for (int i = 0; i < 5; ++i) {
    Trajectory t{"warm-" + std::to_string(i), "other", "sm_90", 1, {}};
    t.steps.push_back(
        {0, "launch.grid_undersized", trained, StepOutcome::faster, std::log(1.8), 0});
    t.steps.push_back(
        {1, "launch.grid_undersized", cold->steps.front().technique, StepOutcome::same, 0.0, 0});
    ASSERT_TRUE(store->record_trajectory(t).ok());
  }
  progress.str("");
  auto r = search();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->steps.front().technique, trained) << progress.str();
}

TEST_F(SearchLoopTest, StopsEarlyWithoutImprovementAndSaysWhy) {
  options.budget = {8, 2, 1e9, 2, 0.01};
  auto r = search();
  ASSERT_TRUE(r.ok());
  // The 1.8x comes early; after it, two rollouts without a further 1% gain stop the search.
  EXPECT_EQ(r->stop_reason, "no improvement > 1% in 2 rollouts") << progress.str();
  EXPECT_LT(r->steps.size(), 16u);
}

// --techniques: the search chooses only among the named techniques, and says so when none of
// them is left to try.
TEST_F(SearchLoopTest, OnlyTheNamedTechniquesAreChosen) {
  options.only_techniques = {"restrict_pointers", "launch_bounds"};
  auto r = search();
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_FALSE(r->steps.empty());
  for (const auto& s : r->steps)
    EXPECT_TRUE(options.only_techniques.contains(s.technique)) << s.technique;
  EXPECT_THAT(progress.str(), ::testing::HasSubstr("no embedded technique left to try"));
}

}  // namespace
}  // namespace kblaster
