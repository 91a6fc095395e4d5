// Pricing a call's tokens, and telling a truncated answer from a whole one.
#include <gtest/gtest.h>

#include "llm/token_cost.h"
#include "llm/truncation.h"

namespace kblaster {
namespace {

TEST(LlmTokenCostTest, PricesInputAndOutputPerMillionTokens) {
  const std::map<std::string, ModelPrice, std::less<>> prices = {
      {"gpt-4o", {.input_per_mtok = 2.5, .output_per_mtok = 10}}};
  const auto cost = usage_cost_usd(prices, "gpt-4o", {.input = 1'000'000, .output = 500'000});
  ASSERT_TRUE(cost.has_value());
  EXPECT_DOUBLE_EQ(*cost, 2.5 + 5.0);
  EXPECT_DOUBLE_EQ(*usage_cost_usd(prices, "gpt-4o", {.input = 0, .output = 0}), 0.0);
}

TEST(LlmTokenCostTest, AnUnpricedModelHasNoCostRatherThanZero) {
  const std::map<std::string, ModelPrice, std::less<>> prices = {{"a", {1, 1}}};
  EXPECT_FALSE(usage_cost_usd(prices, "b", {.input = 10, .output = 10}).has_value());
}

LlmAnswer stopped_by(std::string reason) {
  return {.text = "x", .model = {}, .stop_reason = std::move(reason), .usage = {}, .seconds = 0};
}

TEST(LlmTruncationTest, LengthAndMaxTokensAreTruncatedOthersAreNot) {
  EXPECT_TRUE(truncated(stopped_by("length")));
  EXPECT_TRUE(truncated(stopped_by("max_tokens")));
  EXPECT_FALSE(truncated(stopped_by("stop")));
  EXPECT_FALSE(truncated(stopped_by("end_turn")));
}

}  // namespace
}  // namespace kblaster
