// Counting a run's LLM calls: per kernel and for the run, priced from [llm.prices], and the
// caps that stop a search.
#include "llm/token_ledger.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kblaster {
namespace {

using ::testing::HasSubstr;

LlmAnswer answer(std::string model, std::int64_t in, std::int64_t out) {
  LlmAnswer a;
  a.model = std::move(model);
  a.usage = {.input = in, .output = out};
  return a;
}

TEST(TokenLedger, SumsPerKernelAndForTheRunAndPricesEachCall) {
  TokenLedger ledger({{"m", {.input_per_mtok = 2, .output_per_mtok = 10}}});
  ledger.add("softmax", "apply", answer("m", 1000, 500));
  ledger.add("softmax", "review", answer("m", 800, 20));
  ledger.add("matmul", "apply", answer("m", 2000, 1000));
  const TokenTotals s = ledger.kernel("softmax");
  EXPECT_EQ(s.calls, 2);
  EXPECT_EQ(s.usage.input, 1800);
  EXPECT_EQ(s.usage.output, 520);
  EXPECT_NEAR(s.cost_usd, (1800 * 2 + 520 * 10) / 1e6, 1e-12);
  EXPECT_EQ(s.by_purpose.at("review").output, 20);
  EXPECT_EQ(ledger.run().calls, 3);
  EXPECT_EQ(ledger.run().usage.input, 3800);
  EXPECT_EQ(ledger.kernel("relu").calls, 0) << "a kernel with no call";
  const auto j = to_json(ledger.run());
  EXPECT_EQ(j["tokens_out"], 1520);
  EXPECT_EQ(j["by_purpose"]["apply"]["tokens_in"], 3000);
}

TEST(TokenLedger, AModelWithoutAPriceMakesTheCostUnknownNotFree) {
  TokenLedger ledger;
  ledger.add("k", "apply", answer("unpriced", 10, 10));
  EXPECT_FALSE(ledger.run().cost_known);
  EXPECT_TRUE(to_json(ledger.run())["cost_usd"].is_null());
}

TEST(TokenLedger, TheCapsSayWhenTheyAreReached) {
  TokenLedger tokens({}, {.max_tokens_per_kernel = 1000, .max_cost_usd = 0});
  tokens.add("a", "apply", answer("m", 600, 300));
  EXPECT_EQ(tokens.cap_reached("a"), "");
  tokens.add("a", "gap", answer("m", 90, 10));
  EXPECT_THAT(tokens.cap_reached("a"),
              HasSubstr("the LLM token cap (1000 per kernel) is reached: 1000 tokens"));
  EXPECT_EQ(tokens.cap_reached("b"), "") << "the token cap is per kernel";

  TokenLedger cost({{"m", {.input_per_mtok = 1e6, .output_per_mtok = 0}}},
                   {.max_tokens_per_kernel = 0, .max_cost_usd = 0.5});
  cost.add("a", "apply", answer("m", 1, 0));  // $1
  EXPECT_THAT(cost.cap_reached("b"), HasSubstr("the LLM cost cap ($0.5000) is reached: $1.0000"))
      << "the cost cap is for the run";
}

}  // namespace
}  // namespace kblaster
