#include "search/technique_choice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace kblaster {
namespace {

Prediction predicted(std::string technique, double gain, std::int64_t attempts,
                     double uncertainty = 0.01) {
  Prediction p;
  p.technique = std::move(technique);
  p.expected_log_speedup = gain;
  p.uncertainty = uncertainty;
  p.attempts = attempts;
  return p;
}

// Six techniques, "e" and "f" untried; listed out of order so ranking must sort. The
// tried ones are well known (uncertainty 0.01), so a is nearly always the best.
std::vector<Prediction> sample() {
  return {predicted("c", 0.02, 5), predicted("a", 0.08, 7),      predicted("e", 0.00, 0, 0.3),
          predicted("b", 0.05, 3), predicted("f", 0.01, 0, 0.3), predicted("d", 0.03, 4)};
}

// Chance that a Normal(mu_a, sd_a) draw exceeds an independent Normal(mu_b, sd_b) one.
double chance_above(double mu_a, double sd_a, double mu_b, double sd_b) {
  return 0.5 * std::erfc(-(mu_a - mu_b) / std::sqrt(2.0 * (sd_a * sd_a + sd_b * sd_b)));
}

const std::set<std::string> kAll = {"a", "b", "c", "d", "e", "f"};
constexpr int kDraws = 4000;

struct Tally {
  std::map<std::string, int> count;
  int explored = 0;
};

Tally draw_many(const std::vector<Prediction>& predictions, const std::set<std::string>& applicable,
                const std::set<std::string>& exclude, const ChoiceOptions& options) {
  RandomSource random(42);
  Tally tally;
  for (int i = 0; i < kDraws; ++i) {
    const auto choice = choose_technique(predictions, applicable, exclude, options, random);
    if (!choice) {
      ADD_FAILURE() << "no choice";
      break;
    }
    ++tally.count[choice->technique];
    if (choice->mode == ChoiceMode::explore) ++tally.explored;
  }
  return tally;
}

TEST(ChooseTechnique, NothingLeftGivesNullopt) {
  RandomSource random(1);
  EXPECT_FALSE(choose_technique({}, kAll, {}, {}, random));
  EXPECT_FALSE(choose_technique(sample(), {}, {}, {}, random));
  EXPECT_FALSE(choose_technique(sample(), {"a", "x"}, {"a"}, {}, random));
  EXPECT_FALSE(choose_technique(sample(), {"x"}, {}, {}, random)) << "x has no prediction";
}

TEST(ChooseTechnique, ExcludedAndInapplicableAreNeverChosen) {
  const Tally t = draw_many(sample(), {"a", "c", "d", "e"}, {"a"}, {});
  EXPECT_EQ(t.count.count("a"), 0u);
  EXPECT_EQ(t.count.count("b"), 0u);
  EXPECT_EQ(t.count.count("f"), 0u);
  EXPECT_GT(t.count.at("c"), 0);
  EXPECT_GT(t.count.at("d"), 0);
  EXPECT_GT(t.count.at("e"), 0);
}

TEST(ChooseTechnique, ExploresItsShareUniformlyAmongUntried) {
  const Tally t = draw_many(sample(), kAll, {}, {});
  EXPECT_NEAR(t.explored / double(kDraws), 0.25, 0.025);
  // Exploit reaches them too: one of the two wide ones outdraws a (0.08 +- 0.01) in 64 %
  // of samples (computed by simulation with Python's random.gauss, 400000 samples).
  EXPECT_NEAR(t.count.at("e") + t.count.at("f") - t.explored, 0.75 * kDraws * 0.6415,
              0.03 * kDraws);
}

TEST(ChooseTechnique, NoUntriedMeansNoExploration) {
  std::vector<Prediction> all_tried = sample();
  for (Prediction& p : all_tried) p.attempts = 1;
  const Tally t = draw_many(all_tried, kAll, {}, {.explore_share = 1.0});
  EXPECT_EQ(t.explored, 0);
}

TEST(ChooseTechnique, ExploitWeighsEachByItsChanceOfBeingTheBest) {
  // Two techniques: the weight of each is the chance its gain draw is the larger.
  const std::vector<Prediction> two = {predicted("known", 0.02, 30, 0.01),
                                       predicted("vague", 0.00, 2, 0.10)};
  const Tally t = draw_many(two, {"known", "vague"}, {}, {.explore_share = 0.0});
  const double p_vague = chance_above(0.00, 0.10, 0.02, 0.01);  // about 0.42
  EXPECT_NEAR(t.count.at("vague") / double(kDraws), p_vague, 0.03);
  EXPECT_NEAR(t.count.at("known") / double(kDraws), 1.0 - p_vague, 0.03);
}

TEST(ChooseTechnique, ANoGainTechniqueMeasuredOftenIsRarelyDrawn) {
  // The KB's lesson "this flag does nothing here": many measurements at 0 leave it
  // little chance against an unmeasured technique of the same expected gain, and
  // against a measured winner none at all.
  const std::vector<Prediction> kb = {predicted("flag", 0.0, 40, 0.005),
                                      predicted("unknown", 0.0, 0, 0.3),
                                      predicted("winner", 0.06, 8, 0.02)};
  const Tally t = draw_many(kb, {"flag", "unknown", "winner"}, {}, {.explore_share = 0.0});
  EXPECT_LT(t.count.contains("flag") ? t.count.at("flag") : 0, kDraws / 50);
  EXPECT_GT(t.count.at("winner"), t.count.at("unknown"));
  EXPECT_GT(t.count.at("unknown"), kDraws / 4);
}

TEST(ChooseTechnique, ExploitDrawsOnlyTheTopK) {
  // Four equal, well-known techniques and two wide ones: the wide ones win most draws.
  std::vector<Prediction> p = {predicted("a", 0.0, 9),      predicted("b", 0.0, 9),
                               predicted("c", 0.0, 9),      predicted("d", 0.0, 9),
                               predicted("w", 0.0, 9, 0.3), predicted("x", 0.0, 9, 0.3)};
  const Tally t =
      draw_many(p, {"a", "b", "c", "d", "w", "x"}, {}, {.top_k = 2, .explore_share = 0.0});
  EXPECT_EQ(t.count.at("w") + t.count.at("x"), kDraws);
  EXPECT_NEAR(t.count.at("w") / double(kDraws), 0.5, 0.03);
}

TEST(ChooseTechnique, ReportsTheWeightAndSpreadOfTheChoice) {
  const std::vector<Prediction> two = {predicted("known", 0.02, 30, 0.01),
                                       predicted("vague", 0.00, 2, 0.10)};
  RandomSource random(7);
  const auto choice =
      choose_technique(two, {"known", "vague"}, {}, {.explore_share = 0.0, .draws = 20000}, random);
  ASSERT_TRUE(choice);
  const double p_vague = chance_above(0.00, 0.10, 0.02, 0.01);
  EXPECT_NEAR(choice->weight, choice->technique == "vague" ? p_vague : 1.0 - p_vague, 0.02);
  EXPECT_DOUBLE_EQ(choice->predicted_log_speedup, choice->technique == "vague" ? 0.0 : 0.02);
  EXPECT_DOUBLE_EQ(choice->uncertainty, choice->technique == "vague" ? 0.10 : 0.01);
}

TEST(ChooseTechnique, NoDrawsIsGreedyAndTiesGoByName) {
  std::vector<Prediction> tie = {predicted("z", 0.05, 1), predicted("y", 0.05, 1),
                                 predicted("x", 0.01, 1, 0.5)};
  const Tally t = draw_many(tie, {"x", "y", "z"}, {}, {.explore_share = 0.0, .draws = 0});
  EXPECT_EQ(t.count.at("y"), kDraws);
}

TEST(ChooseTechnique, ExactTiesWithoutSpreadGoToTheFirstByName) {
  std::vector<Prediction> tie = {predicted("z", 0.05, 1, 0.0), predicted("y", 0.05, 1, 0.0)};
  RandomSource random(3);
  const auto choice = choose_technique(tie, {"y", "z"}, {}, {.explore_share = 0.0}, random);
  ASSERT_TRUE(choice);
  EXPECT_EQ(choice->technique, "y");
  EXPECT_DOUBLE_EQ(choice->weight, 1.0);
}

TEST(ChooseTechnique, HugeGainsDoNotOverflow) {
  std::vector<Prediction> big = {predicted("a", 800.0, 1), predicted("b", 799.0, 1)};
  RandomSource random(3);
  const auto choice = choose_technique(big, {"a", "b"}, {}, {.explore_share = 0.0}, random);
  ASSERT_TRUE(choice);
  EXPECT_TRUE(std::isfinite(choice->weight));
  EXPECT_EQ(choice->technique, "a");  // b is 100 spreads behind
}

TEST(ChooseTechnique, SameSeedSameChoices) {
  RandomSource x(9), y(9);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(choose_technique(sample(), kAll, {}, {}, x)->technique,
              choose_technique(sample(), kAll, {}, {}, y)->technique);
}

TEST(DescribeChoice, ReadsAsTheProgressLine) {
  EXPECT_EQ(describe_choice(
                {"vectorized_access", ChoiceMode::exploit, std::log(1.041), std::log(1.02), 0.62}),
            "chose vectorized_access (predicted +4.1% ± 2.0%, exploit, weight 0.62)");
  EXPECT_EQ(describe_choice({"fast_math", ChoiceMode::explore, -1e-6, 0.3, 0.5}),
            "chose fast_math (predicted +0.0% ± 35.0%, explore, weight 0.50)");
}

}  // namespace
}  // namespace kblaster
