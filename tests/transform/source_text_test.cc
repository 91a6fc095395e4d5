#include "transform/source_text.h"

#include <gtest/gtest.h>

#include <cctype>
#include <vector>

namespace kblaster {
namespace {

TEST(SourceTextMask, BlanksCommentsAndLiteralContentsKeepingQuotesAndLines) {
  EXPECT_EQ(mask_source("f(\"a // b\", 'c'); /* d\ne */ g(R\"x(h)x\");"),
            "f(\"      \", ' ');     \n     g(R\"     \");");
}

// Only the first separator of a hex number was known: the quote after FF opened a
// character literal.
TEST(SourceTextMask, KnowsEveryDigitSeparatorOfAHexNumber) {
  EXPECT_EQ(mask_source("x = 0xFF'FF'FF; // c\ny = 1'000'000;"),
            "x = 0xFF'FF'FF;     \ny = 1'000'000;");
}

// The length of the number token at the start of `text`.
std::size_t number_length(std::string_view text) { return number_end(text, 0); }

TEST(SourceTextNumberEnd, EndsAtTheWholePreprocessingNumber) {
  EXPECT_EQ(number_length("16;"), 2u);
  EXPECT_EQ(number_length("16.0f;"), 5u);
  EXPECT_EQ(number_length("1e-16;"), 5u);
  EXPECT_EQ(number_length("0x10u;"), 5u);
  EXPECT_EQ(number_length("1'000;"), 5u);
}

TEST(SourceTextNumberEnd, StopsAtOperatorsAndTheEnd) {
  EXPECT_EQ(number_length("16"), 2u);
  EXPECT_EQ(number_length("16-1"), 2u);  // a sign only after an exponent letter
  EXPECT_EQ(number_length("16)"), 2u);
  const std::string_view text = "n / 16 + 1";
  EXPECT_EQ(number_end(text, 4), 6u);
}

// The span of the first `needle` in `text` at or after `from`.
Span span_of(std::string_view text, std::string_view needle, std::size_t from = 0) {
  const auto at = text.find(needle, from);
  return {at, at + needle.size()};
}

TEST(SourceTextLiteralToken, TrueForAWholeIntegerLiteral) {
  const std::string_view text = "int b = (n + 15) / 16;";
  EXPECT_TRUE(is_literal_token(text, span_of(text, "16")));
  EXPECT_TRUE(is_literal_token("16", {0, 2}));
  const std::string_view suffixed = "x = 16u;";
  EXPECT_TRUE(is_literal_token(suffixed, span_of(suffixed, "16u")));
}

TEST(SourceTextLiteralToken, FalseForAPieceOfAnotherToken) {
  for (const std::string_view text : {"x16", "160", "16.0f", "0.16"}) {
    const std::string source = "a = " + std::string(text) + ";";
    EXPECT_FALSE(is_literal_token(source, span_of(source, "16"))) << text;
  }
}

// The documented limit: alone, the 16 of `1e-16` looks like a token; a scan that
// steps a whole number_end token at a time never offers it.
TEST(SourceTextLiteralToken, TheExponentOfANumberIsNotALiteral) {
  const std::string_view text = "a = 1e-16 * 16;";
  EXPECT_FALSE(is_literal_token(text, span_of(text, "16")));
  EXPECT_FALSE(is_literal_token("0x1p+4", {5, 6}));
  EXPECT_TRUE(is_literal_token("size-16", {5, 7})) << "an identifier ending in e, then minus";
  std::vector<Span> literals;
  for (std::size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    const Span token{i, number_end(text, i)};
    if (is_literal_token(text, token)) literals.push_back(token);
    i = token.end;
  }
  ASSERT_EQ(literals.size(), 1u);
  EXPECT_EQ(literals[0].begin, text.rfind("16"));
  EXPECT_FALSE(is_literal_token(text, span_of(text, "1e-16")));
}

TEST(SourceTextLiteralToken, FalseForAnIdentifierOrASpanPastTheEnd) {
  EXPECT_FALSE(is_literal_token("a = n;", {4, 5}));
  EXPECT_FALSE(is_literal_token("16", {0, 3}));
}

TEST(SourceTextIntegerLiteral, NeedsALeadingDigit) {
  EXPECT_TRUE(is_integer_literal("16"));
  EXPECT_TRUE(is_integer_literal("0x10u"));
  EXPECT_TRUE(is_integer_literal("1'000"));
  EXPECT_FALSE(is_integer_literal(""));
  EXPECT_FALSE(is_integer_literal("x16"));
  EXPECT_FALSE(is_integer_literal("16.0f"));
}

// The function enclosing the first `marker` in `source`.
std::optional<EnclosingFunction> function_at(std::string_view source, std::string_view marker) {
  const auto at = source.find(marker);
  EXPECT_NE(at, std::string_view::npos) << marker;
  return enclosing_function(source, at);
}

TEST(SourceTextEnclosingFunction, NamesAFreeFunctionAndGivesItsBody) {
  const std::string_view source =
      "void launch(int n) {\n"
      "  k<<<n / 256, 256>>>(n);\n"
      "}\n";
  const auto f = function_at(source, "k<<<");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "launch");
  EXPECT_EQ(f->body.begin, source.find('{') + 1);
  EXPECT_EQ(f->body.end, source.rfind('}'));
}

TEST(SourceTextEnclosingFunction, NamesAConstMemberFunction) {
  const std::string_view source =
      "int S::f() const {\n"
      "  return g(1);\n"
      "}\n";
  const auto f = function_at(source, "return");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "f");
}

TEST(SourceTextEnclosingFunction, LooksPastNestedBlocksToTheFunction) {
  const std::string_view source =
      "void run(int n) {\n"
      "  for (int i = 0; i < n; ++i) {\n"
      "    if (i > 0) {\n"
      "      k<<<1, 32>>>(i);\n"
      "    }\n"
      "  }\n"
      "}\n";
  const auto f = function_at(source, "k<<<");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "run");
  EXPECT_EQ(f->body.begin, source.find('{') + 1);
  EXPECT_EQ(f->body.end, source.rfind('}'));
}

TEST(SourceTextEnclosingFunction, CallsAFileScopeLambdaALambda) {
  const std::string_view source =
      "auto go = [](int n) {\n"
      "  k<<<1, n>>>();\n"
      "};\n";
  const auto f = function_at(source, "k<<<");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "a lambda");
}

TEST(SourceTextEnclosingFunction, GivesTheFunctionAroundALambda) {
  const std::string_view source =
      "void outer() {\n"
      "  auto go = [&](int n) { k<<<1, n>>>(); };\n"
      "}\n";
  const auto f = function_at(source, "k<<<");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "outer");
}

TEST(SourceTextEnclosingFunction, NulloptAtFileScope) {
  const std::string_view source =
      "constexpr int kBlock = 256;\n"
      "struct S { int v = 1; };\n"
      "void f() {}\n"
      "int after = 2;\n";
  EXPECT_FALSE(function_at(source, "kBlock"));
  EXPECT_FALSE(function_at(source, "v = 1"));
  EXPECT_FALSE(function_at(source, "after"));
}

}  // namespace
}  // namespace kblaster
