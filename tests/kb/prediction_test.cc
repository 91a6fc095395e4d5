#include "kb/prediction.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "test_paths.h"

namespace kblaster {
namespace {

constexpr const char* kState = "memory.dram_saturated";
constexpr const char* kSibling = "memory.l2_bound";  // same class
constexpr const char* kTechnique = "vectorized_access";

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class KbPredictionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto dir = testing::source_dir() / "kb" / "catalogue";
    Result<Catalogue> c =
        load_catalogue(read_text(dir / "techniques.json"), read_text(dir / "states.json"));
    ASSERT_TRUE(c.ok()) << c.error().describe();
    catalogue_ = std::move(*c);
    Result<Store> s = Store::open(dir_.path() / "kb.sqlite");
    ASSERT_TRUE(s.ok()) << s.error().describe();
    store_.emplace(std::move(*s));
  }

  // Records one trajectory per step: `technique` in `state` on `arch`.
  void record(const std::string& state, const std::string& technique, const std::string& arch,
              const std::vector<std::pair<StepOutcome, double>>& steps) {
    for (const auto& [outcome, reward] : steps) {
      Trajectory t{std::to_string(next_id_++), "task", arch, 100, {}};
      t.steps.push_back({0, state, technique, outcome, reward, 0});
      Result<Recorded> r = store_->record_trajectory(t);
      ASSERT_TRUE(r.ok()) << r.error().describe();
    }
  }
  void record_measured(const std::string& state, const std::string& technique,
                       const std::string& arch, int count, double reward = 0.2) {
    record(state, technique, arch,
           std::vector<std::pair<StepOutcome, double>>(count, {StepOutcome::faster, reward}));
  }

  Prediction find(std::string_view state, std::string_view arch, std::string_view technique,
                  PredictionOptions options = {}) {
    Result<std::vector<Prediction>> all = predict(*store_, catalogue_, state, arch, options);
    EXPECT_TRUE(all.ok()) << all.error().describe();
    if (!all.ok()) return {};
    for (const Prediction& p : *all)
      if (p.technique == technique) return p;
    ADD_FAILURE() << "no prediction for " << technique;
    return {};
  }
  // A catalogue technique that has no prior in `state` ("" if every one has).
  std::string technique_without_prior(const char* state) const {
    const PerfStateInfo* info = catalogue_.find_state(state);
    std::string bare;
    for (const Technique& t : catalogue_.techniques)
      if (!info->priors.contains(t.id)) bare = t.id;
    return bare;
  }
  Prior prior_of(const char* state, const char* technique) const {
    return catalogue_.find_state(state)->priors.at(technique);
  }

  testing::TempDir dir_;
  Catalogue catalogue_;
  std::optional<Store> store_;
  int next_id_ = 0;
};

TEST_F(KbPredictionTest, EmptyKbGivesPriorsWhereTheStateHasThemAndNoneElsewhere) {
  Result<std::vector<Prediction>> all = predict(*store_, catalogue_, kState, "sm_90");
  ASSERT_TRUE(all.ok()) << all.error().describe();
  ASSERT_EQ(all->size(), catalogue_.techniques.size());
  const PerfStateInfo* info = catalogue_.find_state(kState);
  for (const Prediction& p : *all) {
    const auto it = info->priors.find(p.technique);
    if (it == info->priors.end()) {
      EXPECT_EQ(p.source, Prediction::Source::none) << p.technique;
      EXPECT_EQ(p.expected_log_speedup, 0.0);
      EXPECT_DOUBLE_EQ(p.uncertainty, 0.1);
    } else {
      EXPECT_EQ(p.source, Prediction::Source::prior) << p.technique;
      EXPECT_DOUBLE_EQ(p.expected_log_speedup, it->second.expected_log_speedup);
      const double k = 10.0 * it->second.confidence;
      EXPECT_DOUBLE_EQ(p.uncertainty, 0.1 / std::sqrt(std::max(k, 1.0)));
    }
    EXPECT_EQ(p.evidence, 0);
  }
}

TEST_F(KbPredictionTest, ExactStatisticsWinWithEnoughEvidence) {
  record_measured(kState, kTechnique, "sm_90", 3);
  record_measured(kSibling, kTechnique, "sm_90", 5, 0.9);
  record_measured(kState, kTechnique, "sm_80", 5, 0.9);
  Prediction p = find(kState, "sm_90", kTechnique);
  EXPECT_EQ(p.source, Prediction::Source::exact);
  EXPECT_EQ(p.evidence, 3);
  EXPECT_STREQ(prediction_source_name(p.source), "exact");
}

TEST_F(KbPredictionTest, TooFewExactStepsBackOffToSimilarStatesOnThisArch) {
  record_measured(kState, kTechnique, "sm_90", 2);
  record_measured(kSibling, kTechnique, "sm_90", 1);
  record_measured(kState, kTechnique, "sm_80", 5);
  record_measured("compute.fp32_pipe_bound", kTechnique, "sm_90", 5);  // other class: unused
  Prediction p = find(kState, "sm_90", kTechnique);
  EXPECT_EQ(p.source, Prediction::Source::similar_state);
  EXPECT_EQ(p.evidence, 3);  // this state's two steps pooled with the sibling's one
  EXPECT_EQ(p.attempts_here, 2);
  EXPECT_EQ(find(kSibling, "sm_90", kTechnique).attempts_here, 1);
  EXPECT_EQ(find(kState, "sm_100", kTechnique).attempts_here, 0);  // only other archs
}

TEST_F(KbPredictionTest, OtherArchsComeAfterSimilarStates) {
  record_measured(kState, kTechnique, "sm_90", 1);
  record_measured(kState, kTechnique, "sm_80", 2);
  record_measured("compute.fp32_pipe_bound", kTechnique, "sm_90", 5);
  Prediction p = find(kState, "sm_90", kTechnique);
  EXPECT_EQ(p.source, Prediction::Source::other_arch);
  EXPECT_EQ(p.evidence, 3);  // the state on every arch
  EXPECT_STREQ(prediction_source_name(p.source), "other_arch");
}

TEST_F(KbPredictionTest, TooLittleEvidenceAnywhereFallsBackToThePrior) {
  record_measured(kState, kTechnique, "sm_90", 2, 0.9);
  Prediction p = find(kState, "sm_90", kTechnique);
  EXPECT_EQ(p.source, Prediction::Source::prior);
  EXPECT_DOUBLE_EQ(p.expected_log_speedup, prior_of(kState, kTechnique).expected_log_speedup);
  EXPECT_EQ(p.evidence, 0);
  PredictionOptions two;
  two.min_evidence = 2;
  EXPECT_EQ(find(kState, "sm_90", kTechnique, two).source, Prediction::Source::exact);
}

// Hand-computed: prior p = 0.1, c = 0.5 -> k = 5; rewards 0.2, 0.3, 0.4 and one compile
// failure -> n = 3, a = 4, m = 0.3, s^2 = 0.01.
//   mu = (0.9 + 0.5) / 8 = 0.175;  rho = 8 / 9;  gain = 0.175 * 8 / 9 = 0.1555...
//   s_eff^2 = (2 * 0.01 + 0.01) / 3 = 0.01;  uncertainty = sqrt(0.01 / 8).
TEST_F(KbPredictionTest, ShrinkageAndFailuresMatchTheHandComputedCase) {
  const Prior prior = prior_of(kState, kTechnique);
  ASSERT_DOUBLE_EQ(prior.expected_log_speedup, 0.1) << "catalogue changed; recompute";
  ASSERT_DOUBLE_EQ(prior.confidence, 0.5) << "catalogue changed; recompute";
  record(kState, kTechnique, "sm_90",
         {{StepOutcome::faster, 0.2},
          {StepOutcome::faster, 0.3},
          {StepOutcome::faster, 0.4},
          {StepOutcome::compile_failure, 0.0}});
  Prediction p = find(kState, "sm_90", kTechnique);
  EXPECT_EQ(p.source, Prediction::Source::exact);
  EXPECT_EQ(p.evidence, 3);
  EXPECT_EQ(p.attempts, 4);
  EXPECT_NEAR(p.expected_log_speedup, 0.175 * 8.0 / 9.0, 1e-12);
  EXPECT_NEAR(p.uncertainty, std::sqrt(0.01 / 8.0), 1e-12);
}

TEST_F(KbPredictionTest, RepeatedFailuresPullTheGainTowardZero) {
  record(kState, kTechnique, "sm_90",
         std::vector<std::pair<StepOutcome, double>>(20, {StepOutcome::compile_failure, 0.0}));
  Prediction p = find(kState, "sm_90", kTechnique);
  EXPECT_EQ(p.source, Prediction::Source::exact);
  EXPECT_EQ(p.evidence, 0);
  EXPECT_NEAR(p.expected_log_speedup, 0.1 * 5.0 / 25.0, 1e-12);  // p * k / (a + k)
}

TEST_F(KbPredictionTest, WithoutAPriorMeasurementsStandAlone) {
  const std::string bare = technique_without_prior(kState);
  ASSERT_FALSE(bare.empty());
  record(
      kState, bare, "sm_90",
      {{StepOutcome::slower, -0.1}, {StepOutcome::faster, 0.3}, {StepOutcome::verify_failure, 0}});
  Prediction p = find(kState, "sm_90", bare);
  EXPECT_EQ(p.source, Prediction::Source::exact);
  EXPECT_NEAR(p.expected_log_speedup, 0.1 * 2.0 / 3.0, 1e-12);  // mean 0.1, rho 2/3
  // s^2 = 0.08; s_eff^2 = (0.08 + 0.01) / 2; n + k = 2.
  EXPECT_NEAR(p.uncertainty, std::sqrt(0.09 / 2.0 / 2.0), 1e-12);
}

// Hand-computed: forty no-gain steps in a sibling state -> n = a = 40, m = 0,
// v_m = (0.01 / 40) / 40 + 0.1^2; the prior p = 0.1, c = 0.5 -> k = 5, v_b = 0.01 / 5.
//   w = 1/v_m + 1/v_b;  gain = (0.1 / v_b) / w (about 0.083);  uncertainty = sqrt(1 / w).
// The same forty steps made in this state (the exact level) give 0.5 / 45 (about 0.011).
TEST_F(KbPredictionTest, StepsInAnotherStateInformButDoNotOutvoteThePrior) {
  const Prior prior = prior_of(kState, kTechnique);
  ASSERT_DOUBLE_EQ(prior.expected_log_speedup, 0.1) << "catalogue changed; recompute";
  ASSERT_DOUBLE_EQ(prior.confidence, 0.5) << "catalogue changed; recompute";
  record_measured(kSibling, kTechnique, "sm_90", 40, 0.0);
  Prediction p = find(kState, "sm_90", kTechnique);
  EXPECT_EQ(p.source, Prediction::Source::similar_state);
  EXPECT_EQ(p.evidence, 40);
  const double w = 1.0 / (0.01 / 1600.0 + 0.01) + 5.0 / 0.01;
  EXPECT_NEAR(p.expected_log_speedup, 0.1 * 5.0 / 0.01 / w, 1e-12);
  EXPECT_NEAR(p.uncertainty, std::sqrt(1.0 / w), 1e-12);

  Prediction here = find(kSibling, "sm_90", kTechnique);  // the sibling's own, exact
  ASSERT_EQ(here.source, Prediction::Source::exact);
  const Prior sibling = prior_of(kSibling, kTechnique);
  const double k = 10.0 * sibling.confidence;
  EXPECT_NEAR(here.expected_log_speedup, k * sibling.expected_log_speedup / (40.0 + k), 1e-12);
  EXPECT_GT(p.expected_log_speedup, 5.0 * here.expected_log_speedup);
}

// Without a prior the other side of the combination is `none` (0, unit_sd): the
// borrowed steps narrow it, never widen it. 40 steps of 0.2 and one compile failure in a
// sibling -> n = 40, a = 41, m = 0.2, w_m = 1 / ((0.01 / 40) / 40 + 0.01), w_b = 100.
TEST_F(KbPredictionTest, BorrowedEvidenceWithoutAPriorIsWeighedAgainstNone) {
  const std::string bare = technique_without_prior(kState);
  ASSERT_FALSE(bare.empty());
  record_measured(kSibling, bare, "sm_90", 40, 0.2);
  record(kSibling, bare, "sm_90", {{StepOutcome::compile_failure, 0.0}});
  record_measured(kState, bare, "sm_80", 3, 0.3);
  Prediction similar = find(kState, "sm_90", bare);
  EXPECT_EQ(similar.source, Prediction::Source::similar_state);
  const double w_m = 1.0 / (0.01 / 1600.0 + 0.01);
  EXPECT_NEAR(similar.expected_log_speedup, 40.0 / 41.0 * 0.2 * w_m / (w_m + 100.0), 1e-12);
  EXPECT_NEAR(similar.uncertainty, std::sqrt(1.0 / (w_m + 100.0)), 1e-12);
  EXPECT_LT(similar.uncertainty, PredictionOptions{}.unit_sd);  // narrower than `none`
  EXPECT_GT(similar.uncertainty, 0.07);                         // but about one step's worth

  Prediction arch = find(kState, "sm_100", bare);  // the three sm_80 steps
  EXPECT_EQ(arch.source, Prediction::Source::other_arch);
  const double w_arch = 1.0 / (0.01 / 9.0 + 0.01);  // n = a = 3, s^2 = 0
  EXPECT_NEAR(arch.expected_log_speedup, 0.3 * w_arch / (w_arch + 100.0), 1e-12);
  EXPECT_NEAR(arch.uncertainty, std::sqrt(1.0 / (w_arch + 100.0)), 1e-12);
}

// Failures are evidence at a borrowed level as at the exact one: forty compile failures in
// a sibling pull the prior's 0.1 to 0.1 * 5 / 45, and leave a technique without a prior at 0.
TEST_F(KbPredictionTest, FailuresElsewherePullTheGainTowardZero) {
  record(kSibling, kTechnique, "sm_90",
         std::vector<std::pair<StepOutcome, double>>(40, {StepOutcome::compile_failure, 0.0}));
  Prediction p = find(kState, "sm_90", kTechnique);
  EXPECT_EQ(p.source, Prediction::Source::similar_state);
  EXPECT_NEAR(p.expected_log_speedup, 0.1 * 5.0 / 45.0, 1e-12);
  EXPECT_NEAR(p.uncertainty, 0.1 / std::sqrt(5.0), 1e-12);  // the prior level's

  const std::string bare = technique_without_prior(kState);
  record(kSibling, bare, "sm_90",
         std::vector<std::pair<StepOutcome, double>>(40, {StepOutcome::verify_failure, 0.0}));
  Prediction q = find(kState, "sm_90", bare);
  EXPECT_EQ(q.expected_log_speedup, 0.0);
  EXPECT_DOUBLE_EQ(q.uncertainty, 0.1);
}

// A prior of confidence 0 weighs nothing (k = 0), so it predicts what no prior does, at
// every level, whatever its gain.
TEST_F(KbPredictionTest, APriorOfConfidenceZeroIsNoPrior) {
  const auto dir = testing::source_dir() / "kb" / "catalogue";
  auto states = nlohmann::json::parse(read_text(dir / "states.json"));
  for (auto& state : states["states"])
    if (state["key"] == kState)
      state["priors"][kTechnique] = {{"expected_log_speedup", 0.3}, {"confidence", 0.0}};
  Result<Catalogue> zero = load_catalogue(read_text(dir / "techniques.json"), states.dump());
  ASSERT_TRUE(zero.ok()) << zero.error().describe();
  catalogue_ = std::move(*zero);
  const std::string bare = technique_without_prior(kState);
  EXPECT_EQ(find(kState, "sm_90", kTechnique).expected_log_speedup, 0.0);
  for (const std::string& t : {std::string(kTechnique), bare})
    record_measured(kSibling, t, "sm_90", 40, 0.1);
  const Prediction zero_prior = find(kState, "sm_90", kTechnique);
  const Prediction no_prior = find(kState, "sm_90", bare);
  EXPECT_EQ(zero_prior.source, Prediction::Source::similar_state);
  EXPECT_DOUBLE_EQ(zero_prior.expected_log_speedup, no_prior.expected_log_speedup);
  EXPECT_DOUBLE_EQ(zero_prior.uncertainty, no_prior.uncertainty);
}

TEST_F(KbPredictionTest, SortedByGainDescendingThenById) {
  record_measured(kState, "fast_math", "sm_90", 3, 2.0);
  Result<std::vector<Prediction>> all = predict(*store_, catalogue_, kState, "sm_90");
  ASSERT_TRUE(all.ok()) << all.error().describe();
  EXPECT_EQ(all->front().technique, "fast_math");
  for (std::size_t i = 1; i < all->size(); ++i) {
    const Prediction& a = (*all)[i - 1];
    const Prediction& b = (*all)[i];
    EXPECT_TRUE(a.expected_log_speedup > b.expected_log_speedup ||
                (a.expected_log_speedup == b.expected_log_speedup && a.technique < b.technique))
        << a.technique << " before " << b.technique;
  }
}

TEST_F(KbPredictionTest, UnknownStateIsNoErrorAndGivesNoneForEveryTechnique) {
  for (const char* state : {"memory.not_a_state", "nodot"}) {
    Result<std::vector<Prediction>> all = predict(*store_, catalogue_, state, "sm_90");
    ASSERT_TRUE(all.ok()) << all.error().describe();
    ASSERT_EQ(all->size(), catalogue_.techniques.size());
    for (const Prediction& p : *all) {
      EXPECT_EQ(p.source, Prediction::Source::none) << state << " " << p.technique;
      EXPECT_EQ(p.expected_log_speedup, 0.0);
    }
    EXPECT_TRUE(std::is_sorted(
        all->begin(), all->end(),
        [](const Prediction& a, const Prediction& b) { return a.technique < b.technique; }));
  }
}

TEST_F(KbPredictionTest, StateWithoutClassDotOnlyPoolsItself) {
  record_measured("nodot", kTechnique, "sm_80", 3);
  record_measured("nodot.x", kTechnique, "sm_90", 3);  // not a sibling of "nodot"
  Prediction p = find("nodot", "sm_90", kTechnique);
  EXPECT_EQ(p.source, Prediction::Source::other_arch);
  EXPECT_EQ(p.evidence, 3);
}

TEST(PredictionSource, NamesEveryLevel) {
  EXPECT_STREQ(prediction_source_name(Prediction::Source::similar_state), "similar_state");
  EXPECT_STREQ(prediction_source_name(Prediction::Source::prior), "prior");
  EXPECT_STREQ(prediction_source_name(Prediction::Source::none), "none");
}

}  // namespace
}  // namespace kblaster
