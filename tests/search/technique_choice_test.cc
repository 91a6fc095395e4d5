#include "search/technique_choice.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace kblaster {
namespace {

Prediction predicted(std::string technique, double gain, std::int64_t attempts) {
  Prediction p;
  p.technique = std::move(technique);
  p.expected_log_speedup = gain;
  p.attempts = attempts;
  return p;
}

// Six techniques, "e" and "f" untried; listed out of order so ranking must sort.
std::vector<Prediction> sample() {
  return {predicted("c", 0.02, 5), predicted("a", 0.08, 7), predicted("e", 0.00, 0),
          predicted("b", 0.05, 3), predicted("f", 0.01, 0), predicted("d", 0.03, 4)};
}

const std::set<std::string> kAll = {"a", "b", "c", "d", "e", "f"};
constexpr int kDraws = 10000;

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
  EXPECT_NEAR(t.explored / double(kDraws), 0.25, 0.015);
  // Exploit never reaches e or f (ranks 5 and 6 with top_k 4): all their picks are explores.
  EXPECT_EQ(t.count.at("e") + t.count.at("f"), t.explored);
  EXPECT_NEAR(t.count.at("e") / double(t.explored), 0.5, 0.04);
}

TEST(ChooseTechnique, NoUntriedMeansNoExploration) {
  std::vector<Prediction> all_tried = sample();
  for (Prediction& p : all_tried) p.attempts = 1;
  const Tally t = draw_many(all_tried, kAll, {}, {.explore_share = 1.0});
  EXPECT_EQ(t.explored, 0);
}

TEST(ChooseTechnique, ExploitDrawsTheTopKBySoftmaxWeights) {
  const Tally t = draw_many(sample(), kAll, {}, {.explore_share = 0.0});
  EXPECT_EQ(t.explored, 0);
  EXPECT_EQ(t.count.count("e") + t.count.count("f"), 0u) << "outside the top 4";
  // softmax(gain / 0.05) over a 0.08, b 0.05, d 0.03, c 0.02.
  const std::map<std::string, double> gains = {{"a", 0.08}, {"b", 0.05}, {"d", 0.03}, {"c", 0.02}};
  double sum = 0;
  for (const auto& [id, g] : gains) sum += std::exp((g - 0.08) / 0.05);
  for (const auto& [id, g] : gains)
    EXPECT_NEAR(t.count.at(id) / double(kDraws), std::exp((g - 0.08) / 0.05) / sum, 0.015) << id;
  EXPECT_GT(t.count.at("a"), t.count.at("b"));
  EXPECT_GT(t.count.at("b"), t.count.at("d"));
}

TEST(ChooseTechnique, ReportsTheWeightOfTheChoice) {
  RandomSource random(7);
  const ChoiceOptions options{.top_k = 2, .explore_share = 0.0};
  const auto choice = choose_technique(sample(), kAll, {}, options, random);
  ASSERT_TRUE(choice);
  const double wa = 1.0 / (1.0 + std::exp(-0.03 / 0.05));  // a against b
  EXPECT_NEAR(choice->weight, choice->technique == "a" ? wa : 1.0 - wa, 1e-12);
  EXPECT_DOUBLE_EQ(choice->predicted_log_speedup, choice->technique == "a" ? 0.08 : 0.05);
}

TEST(ChooseTechnique, ZeroTemperatureIsGreedyAndTiesGoByName) {
  std::vector<Prediction> tie = {predicted("z", 0.05, 1), predicted("y", 0.05, 1),
                                 predicted("x", 0.01, 1)};
  const Tally t = draw_many(tie, {"x", "y", "z"}, {}, {.explore_share = 0.0, .temperature = 0.0});
  EXPECT_EQ(t.count.at("y"), kDraws);
}

TEST(ChooseTechnique, HugeGainsDoNotOverflow) {
  std::vector<Prediction> big = {predicted("a", 800.0, 1), predicted("b", 799.0, 1)};
  RandomSource random(3);
  const auto choice = choose_technique(big, {"a", "b"}, {}, {.explore_share = 0.0}, random);
  ASSERT_TRUE(choice);
  EXPECT_TRUE(std::isfinite(choice->weight));
  EXPECT_EQ(choice->technique, "a");  // b's weight is exp(-20)
}

TEST(ChooseTechnique, SameSeedSameChoices) {
  RandomSource x(9), y(9);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(choose_technique(sample(), kAll, {}, {}, x)->technique,
              choose_technique(sample(), kAll, {}, {}, y)->technique);
}

TEST(DescribeChoice, ReadsAsTheProgressLine) {
  EXPECT_EQ(describe_choice({"vectorized_access", ChoiceMode::exploit, std::log(1.041), 0.62}),
            "chose vectorized_access (predicted +4.1%, exploit, weight 0.62)");
  EXPECT_EQ(describe_choice({"fast_math", ChoiceMode::explore, -1e-6, 0.5}),
            "chose fast_math (predicted +0.0%, explore, weight 0.50)");
}

}  // namespace
}  // namespace kblaster
