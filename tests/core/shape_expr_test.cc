#include "core/shape_expr.h"

#include <gtest/gtest.h>

#include "core/hostile_text.h"
#include "core/input_limits.h"

namespace kblaster {
namespace {

using testing::chain;
using testing::nested;

std::int64_t eval_ok(const std::string& text, std::map<std::string, std::int64_t> scalars = {}) {
  auto e = ShapeExpr::parse(text);
  EXPECT_TRUE(e.ok()) << text << ": " << (e.ok() ? "" : e.error().describe());
  auto v = e->evaluate(scalars);
  EXPECT_TRUE(v.ok()) << text << ": " << (v.ok() ? "" : v.error().describe());
  return v.ok() ? *v : -1;
}

TEST(ShapeExpr, EvaluatesWithPrecedenceAndParentheses) {
  EXPECT_EQ(eval_ok("N*C", {{"N", 8192}, {"C", 768}}), 8192 * 768);
  EXPECT_EQ(eval_ok("2 + 3 * 4"), 14);
  EXPECT_EQ(eval_ok("(2 + 3) * 4"), 20);
  EXPECT_EQ(eval_ok("(N + 31) / 32 * 32", {{"N", 33}}), 64);
  EXPECT_EQ(eval_ok("N % 7 - -1", {{"N", 15}}), 2);
  EXPECT_EQ(eval_ok("  B*H * S*S ", {{"B", 2}, {"H", 3}, {"S", 4}}), 96);
  EXPECT_EQ(eval_ok("10 - 2 - 3"), 5) << "subtraction is left-associative";
  EXPECT_EQ(eval_ok("64 / 4 / 2"), 8) << "division is left-associative";
}

TEST(ShapeExpr, ListsNamesInOrderOfFirstUse) {
  auto e = ShapeExpr::parse("M*K + K*N + M*N");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->names(), (std::vector<std::string>{"M", "K", "N"}));
}

TEST(ShapeExpr, UnknownNameIsAnError) {
  auto e = ShapeExpr::parse("N*D");
  ASSERT_TRUE(e.ok());
  auto v = e->evaluate({{"N", 4}});
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().message, "unknown name `D` in `N*D`");
}

TEST(ShapeExpr, MultiplicationOverflowIsCaught) {
  auto e = ShapeExpr::parse("N*N*N");
  ASSERT_TRUE(e.ok());
  auto v = e->evaluate({{"N", 3'000'000}});
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().message, "`N*N*N` overflows a 64-bit integer");
}

TEST(ShapeExpr, AdditionOverflowAndHugeLiteralAreCaught) {
  auto add = ShapeExpr::parse("N + 1");
  ASSERT_TRUE(add.ok());
  EXPECT_FALSE(add->evaluate({{"N", INT64_MAX}}).ok());
  auto literal = ShapeExpr::parse("99999999999999999999");
  ASSERT_FALSE(literal.ok());
  EXPECT_EQ(literal.error().message, "integer literal does not fit in 64 bits");
}

TEST(ShapeExpr, DivisionByZeroIsCaught) {
  auto e = ShapeExpr::parse("N / (M - 4)");
  ASSERT_TRUE(e.ok());
  auto v = e->evaluate({{"N", 8}, {"M", 4}});
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().message, "division by zero in `N / (M - 4)`");
}

TEST(ShapeExpr, SyntaxErrorsGiveTheColumn) {
  struct Case {
    const char* text;
    const char* where;
    const char* message;
  };
  for (const Case& c :
       {Case{"N*", "col 3", "expression ends where an operand was expected"},
        Case{"(N+1", "col 5", "missing `)`"}, Case{"N C", "col 3", "unexpected `C`"},
        Case{"N ^ 2", "col 3", "unexpected `^`"},
        Case{"", "col 1", "expression ends where an operand was expected"}}) {
    auto e = ShapeExpr::parse(c.text);
    ASSERT_FALSE(e.ok()) << c.text;
    EXPECT_EQ(e.error().where, c.where) << c.text;
    EXPECT_EQ(e.error().message, c.message) << c.text;
  }
}

TEST(ShapeExpr, NestingUpToTheLimitParsesAndOneMoreLevelIsAnError) {
  EXPECT_EQ(eval_ok(nested(kMaxExpressionDepth), {{"N", 5}}), 5);
  EXPECT_EQ(eval_ok(std::string(kMaxExpressionDepth, '-') + "3"), 3);
  const std::string depth = std::to_string(kMaxExpressionDepth);
  auto parens = ShapeExpr::parse(nested(kMaxExpressionDepth + 1));
  ASSERT_FALSE(parens.ok());
  EXPECT_EQ(parens.error().where, "col " + std::to_string(kMaxExpressionDepth + 1))
      << "the column of the parenthesis one past the limit";
  EXPECT_EQ(parens.error().message,
            "parentheses and unary minuses nest more than " + depth + " deep");
  const std::string all_minuses(kMaxExpressionDepth, '-');
  auto minuses = ShapeExpr::parse("(" + all_minuses + "1)");
  ASSERT_FALSE(minuses.ok()) << "parentheses and minuses count together";
  EXPECT_EQ(minuses.error().message, parens.error().message);
  EXPECT_TRUE(
      ShapeExpr::parse(nested(kMaxExpressionDepth / 2) + "+" + nested(kMaxExpressionDepth)).ok())
      << "depth is nesting, not the number of parentheses";
}

TEST(ShapeExpr, TheLongestChainEvaluatesAndALongerOneIsAnError) {
  const std::size_t terms = (kMaxExpressionLength + 1) / 2;
  EXPECT_EQ(eval_ok(chain(terms)), static_cast<std::int64_t>(terms));
  auto longer = ShapeExpr::parse(chain(terms) + "+1");
  ASSERT_FALSE(longer.ok());
  EXPECT_EQ(longer.error().where, "col " + std::to_string(kMaxExpressionLength + 1));
  EXPECT_EQ(longer.error().message, "the expression is " + std::to_string(chain(terms).size() + 2) +
                                        " characters long; an expression may have at most " +
                                        std::to_string(kMaxExpressionLength));
}

// These overflowed the stack (signal 11) before the limits: the parser recursed
// once per parenthesis or minus, and evaluation and destruction once per term.
TEST(ShapeExpr, HostileInputsAreErrorsNotCrashes) {
  for (const std::string& text : {nested(20'000), std::string(200'000, '-') + "1", chain(100'000),
                                  std::string(20'000, '(')}) {
    auto e = ShapeExpr::parse(text);
    ASSERT_FALSE(e.ok()) << text.size() << " characters";
    EXPECT_EQ(e.error().kind, ErrorKind::config);
    EXPECT_EQ(e.error().message, "the expression is " + std::to_string(text.size()) +
                                     " characters long; an expression may have at most " +
                                     std::to_string(kMaxExpressionLength));
  }
}

}  // namespace
}  // namespace kblaster
