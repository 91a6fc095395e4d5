#include "search/technique_choice.h"

#include <gtest/gtest.h>

#include <algorithm>
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
  p.attempts_here = attempts;  // an exact-level prediction
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
  std::map<std::string, int> explored_count;
  int explored = 0;
  int of(const std::string& technique) const {
    return count.contains(technique) ? count.at(technique) : 0;
  }
};

// Few posterior samples suffice where top_k keeps every technique: a technique is then
// picked with its expected share, which is exactly its chance of being the best.
constexpr int kFewDraws = 50;

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
    if (choice->mode == ChoiceMode::explore)
      ++tally.explored, ++tally.explored_count[choice->technique];
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
  const Tally t = draw_many(sample(), {"a", "c", "d", "e"}, {"a"}, {.draws = kFewDraws});
  EXPECT_EQ(t.count.count("a"), 0u);
  EXPECT_EQ(t.count.count("b"), 0u);
  EXPECT_EQ(t.count.count("f"), 0u);
  EXPECT_GT(t.count.at("c"), 0);
  EXPECT_GT(t.count.at("d"), 0);
  EXPECT_GT(t.count.at("e"), 0);
}

TEST(ChooseTechnique, ExploresItsShareUniformlyAmongUntried) {
  const Tally t = draw_many(sample(), kAll, {}, {.draws = 400});
  EXPECT_NEAR(t.explored / double(kDraws), 0.25, 0.025);
  EXPECT_EQ(t.explored_count.at("e") + t.explored_count.at("f"), t.explored);
  EXPECT_NEAR(t.explored_count.at("e") / double(t.explored), 0.5, 0.05);
  // Exploit reaches them too: one of the two wide ones outdraws a (0.08 +- 0.01) in 64 %
  // of samples (computed by simulation with Python's random.gauss, 400000 samples).
  EXPECT_NEAR(t.count.at("e") + t.count.at("f") - t.explored, 0.75 * kDraws * 0.6415,
              0.03 * kDraws);
}

TEST(ChooseTechnique, NoUntriedMeansNoExploration) {
  std::vector<Prediction> all_tried = sample();
  for (Prediction& p : all_tried) p.attempts = p.attempts_here = 1;
  const Tally t = draw_many(all_tried, kAll, {}, {.explore_share = 1.0, .draws = kFewDraws});
  EXPECT_EQ(t.explored, 0);
}

// A warm KB may know a technique only from other states (attempts, but none here): the
// search still explores it in this state, as a cold KB would. And one tried here, whose
// prediction fell back to its prior (attempts 0), is not explored again.
TEST(ChooseTechnique, UntriedMeansNoAttemptInThisState) {
  std::vector<Prediction> p = sample();
  for (Prediction& q : p) {
    q.attempts_here = q.technique == "c" ? 0 : 1;
    if (q.technique == "e" || q.technique == "f") q.attempts = 0;  // tried here twice at most
  }
  const auto c =
      std::find_if(p.begin(), p.end(), [](const Prediction& q) { return q.technique == "c"; });
  ASSERT_GT(c->attempts, 0) << "c is measured elsewhere";
  const Tally t = draw_many(p, kAll, {}, {.explore_share = 1.0, .draws = kFewDraws});
  EXPECT_EQ(t.explored, kDraws);
  EXPECT_EQ(t.explored_count.at("c"), kDraws) << "neither e nor f, untried by the old rule";
}

TEST(ChooseTechnique, ExploitWeighsEachByItsChanceOfBeingTheBest) {
  // Two techniques: each is drawn with the chance that its gain draw is the larger, 0.40
  // for "vague" here. A softmax over the means (temperature 0.05) would give it 0.27.
  const std::vector<Prediction> two = {predicted("known", 0.05, 30, 0.001),
                                       predicted("vague", 0.00, 2, 0.20)};
  const Tally t =
      draw_many(two, {"known", "vague"}, {}, {.explore_share = 0.0, .draws = kFewDraws});
  const double p_vague = chance_above(0.00, 0.20, 0.05, 0.001);
  EXPECT_NEAR(t.of("vague") / double(kDraws), p_vague, 0.03);
  EXPECT_NEAR(t.of("known") / double(kDraws), 1.0 - p_vague, 0.03);
}

TEST(ChooseTechnique, EqualMeansAreACoinTossWhateverTheSpreads) {
  const std::vector<Prediction> two = {predicted("flag", 0.0, 40, 0.005),
                                       predicted("unknown", 0.0, 0, 0.3)};
  const Tally t =
      draw_many(two, {"flag", "unknown"}, {}, {.explore_share = 0.0, .draws = kFewDraws});
  EXPECT_NEAR(t.of("flag") / double(kDraws), 0.5, 0.03);
}

TEST(ChooseTechnique, ANoGainTechniqueMeasuredOftenRarelyBeatsSeveralUnknownsOrAWinner) {
  // The KB's lesson "this flag does nothing here". Against three unmeasured techniques of
  // the same mean it wins only when all three draw below it (1/8 for a flag of no spread),
  // where a softmax over the means gives it 1/4.
  const std::vector<Prediction> unknowns = {
      predicted("flag", 0.0, 40, 0.005), predicted("u1", 0.0, 0, 0.1), predicted("u2", 0.0, 0, 0.1),
      predicted("u3", 0.0, 0, 0.1)};
  const Tally t = draw_many(unknowns, {"flag", "u1", "u2", "u3"}, {},
                            {.explore_share = 0.0, .draws = kFewDraws});
  EXPECT_NEAR(t.of("flag") / double(kDraws), 0.13, 0.03);
  for (const char* u : {"u1", "u2", "u3"}) EXPECT_NEAR(t.of(u) / double(kDraws), 0.29, 0.03) << u;
  // Against a measured winner (+6 % +- 2 %) it has no chance; a softmax would give it 0.23.
  const std::vector<Prediction> winner = {predicted("flag", 0.0, 40, 0.005),
                                          predicted("winner", 0.06, 8, 0.02)};
  const Tally w =
      draw_many(winner, {"flag", "winner"}, {}, {.explore_share = 0.0, .draws = kFewDraws});
  EXPECT_LT(w.of("flag"), kDraws / 100);
}

TEST(ChooseTechnique, ExploitDrawsOnlyTheTopK) {
  // Four equal, well-known techniques and two wide ones: the wide ones win most draws.
  std::vector<Prediction> p = {predicted("a", 0.0, 9),      predicted("b", 0.0, 9),
                               predicted("c", 0.0, 9),      predicted("d", 0.0, 9),
                               predicted("w", 0.0, 9, 0.3), predicted("x", 0.0, 9, 0.3)};
  const Tally t =
      draw_many(p, {"a", "b", "c", "d", "w", "x"}, {}, {.top_k = 2, .explore_share = 0.0});
  EXPECT_EQ(t.of("w") + t.of("x"), kDraws);
  EXPECT_NEAR(t.of("w") / double(kDraws), 0.5, 0.03);
}

TEST(ChooseTechnique, ReportsTheWeightAndSpreadOfTheChoice) {
  const std::vector<Prediction> two = {predicted("known", 0.05, 30, 0.001),
                                       predicted("vague", 0.00, 2, 0.20)};
  RandomSource random(7);
  const auto choice =
      choose_technique(two, {"known", "vague"}, {}, {.explore_share = 0.0, .draws = 20000}, random);
  ASSERT_TRUE(choice);
  const double p_vague = chance_above(0.00, 0.20, 0.05, 0.001);
  EXPECT_NEAR(choice->weight, choice->technique == "vague" ? p_vague : 1.0 - p_vague, 0.02);
  EXPECT_DOUBLE_EQ(choice->predicted_log_speedup, choice->technique == "vague" ? 0.0 : 0.05);
  EXPECT_DOUBLE_EQ(choice->uncertainty, choice->technique == "vague" ? 0.20 : 0.001);
}

TEST(ChooseTechnique, TheWeightIsRenormalisedOverTheTopK) {
  // a wins a sample when b and c both draw below 0.1: 0.691^2 = 0.478; b and c 0.261 each.
  const std::vector<Prediction> three = {predicted("a", 0.1, 9, 0.0), predicted("b", 0.0, 9, 0.2),
                                         predicted("c", 0.0, 9, 0.2)};
  for (std::uint64_t seed : {1, 2, 3, 4, 5, 6}) {
    RandomSource random(seed);
    const auto two = choose_technique(three, {"a", "b", "c"}, {},
                                      {.top_k = 2, .explore_share = 0.0, .draws = 20000}, random);
    ASSERT_TRUE(two);
    const double a = 0.478 / (0.478 + 0.261);
    EXPECT_NEAR(two->weight, two->technique == "a" ? a : 1.0 - a, 0.02) << two->technique;
    const auto one = choose_technique(three, {"a", "b", "c"}, {},
                                      {.top_k = 1, .explore_share = 0.0, .draws = 2000}, random);
    ASSERT_TRUE(one);
    EXPECT_EQ(one->technique, "a");
    EXPECT_DOUBLE_EQ(one->weight, 1.0);
  }
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
