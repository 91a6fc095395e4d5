#include "core/source_regions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kblaster {
namespace {

// The regions of `source` other than code, each as its kind's letter and its whole
// text: "c:/* x */", "s:\"a\"", "q:'a'".
std::vector<std::string> non_code(std::string_view source) {
  std::vector<std::string> out;
  for (const auto& r : lex_regions(source)) {
    if (r.kind == RegionKind::code) continue;
    const char kind = r.kind == RegionKind::comment          ? 'c'
                      : r.kind == RegionKind::string_literal ? 's'
                                                             : 'q';
    out.push_back(std::string(1, kind) + ":" +
                  std::string(source.substr(r.begin, r.end - r.begin)));
  }
  return out;
}

using Texts = std::vector<std::string>;

TEST(SourceRegions, CoverEveryOffsetOnceInOrder) {
  const std::string_view source = "int a; // x\n/* y */ f(\"s\", 'c');\n";
  const auto regions = lex_regions(source);
  std::size_t at = 0;
  for (const auto& r : regions) {
    EXPECT_EQ(r.begin, at);
    EXPECT_LT(r.begin, r.end);
    at = r.end;
  }
  EXPECT_EQ(at, source.size());
  EXPECT_TRUE(lex_regions("").empty());
}

TEST(SourceRegions, FindsLineAndBlockComments) {
  EXPECT_EQ(non_code("a; // one\nb; /* two\nlines */ c; /*/ three */"),
            (Texts{"c:// one", "c:/* two\nlines */", "c:/*/ three */"}));
  const auto regions = lex_regions("x /* inner */");
  EXPECT_EQ(regions.back().text("x /* inner */"), " inner ");
}

TEST(SourceRegions, ABackslashNewlineContinuesALineComment) {
  EXPECT_EQ(non_code("// one \\\n still one\ncode;"), (Texts{"c:// one \\\n still one"}));
  EXPECT_EQ(non_code("// one \\\r\n still one\r\ncode;"), (Texts{"c:// one \\\r\n still one\r"}))
      << "a CR LF file continues it as nvcc does";
}

TEST(SourceRegions, CommentMarkersInsideLiteralsAreText) {
  EXPECT_EQ(non_code("s = \"// not /* a comment\"; c = '/'; d = '*';"),
            (Texts{"s:\"// not /* a comment\"", "q:'/'", "q:'*'"}));
  EXPECT_EQ(non_code("/* \"a string\" 'c' */"), (Texts{"c:/* \"a string\" 'c' */"}));
}

TEST(SourceRegions, EscapedQuotesDoNotEndALiteral) {
  const std::string_view source = R"(s = "a \" b \\"; q = '\''; r = "";)";
  EXPECT_EQ(non_code(source), (Texts{R"(s:"a \" b \\")", R"(q:'\'')", R"(s:"")"}));
  EXPECT_EQ(lex_regions(source)[1].text(source), R"(a \" b \\)");
}

TEST(SourceRegions, QuotesInNumbersAreDigitSeparators) {
  EXPECT_EQ(non_code("int n = 1'000'000; /* c */"), (Texts{"c:/* c */"}));
  EXPECT_EQ(non_code("unsigned m = 0xFF'FF'FF; /* c */"), (Texts{"c:/* c */"}));
  EXPECT_EQ(non_code("auto b = 0b1010'1010, f = 1.000'5e+1'0, h = .5'0; // c"), (Texts{"c:// c"}));
  EXPECT_EQ(non_code("x = 0xAB'CDu + 'q';"), (Texts{"q:'q'"}));
}

TEST(SourceRegions, AQuoteInAHeaderNameOpensNoLiteral) {
  EXPECT_EQ(non_code("#include <a'b.h> // c\nx = '/';"), (Texts{"c:// c", "q:'/'"}));
  EXPECT_EQ(non_code("  #  include_next\t<it's.h>\n#import <a\"b> /* c */"), (Texts{"c:/* c */"}));
  EXPECT_EQ(non_code("#if __has_include( <a'b> ) // c\n"), (Texts{"c:// c"}));
  // Not a header name: a comparison, or a directive with something before the '<'.
  EXPECT_EQ(non_code("if (a <b) c = 'x'; // <'"), (Texts{"q:'x'", "c:// <'"}));
  EXPECT_EQ(non_code("#define include <'x'>"), (Texts{"q:'x'"}));
  EXPECT_EQ(non_code("#include <a'b\n'c'"), (Texts{"q:'b", "q:'c'"})) << "no '>' on the line";
}

TEST(SourceRegions, QuotesAfterIdentifiersAreCharacterLiterals) {
  EXPECT_EQ(non_code("a = u8'x' + L'y' + x1 '/';"), (Texts{"q:'x'", "q:'y'", "q:'/'"}));
}

TEST(SourceRegions, RawStringsSpanLinesAndHoldQuotes) {
  const std::string_view source = "auto r = R\"x(a \"// )\" \n/* b)x\"; u8R\"(c)\"; LR\"(d)\";";
  EXPECT_EQ(non_code(source), (Texts{"s:\"x(a \"// )\" \n/* b)x\"", "s:\"(c)\"", "s:\"(d)\""}));
  EXPECT_EQ(lex_regions(source)[1].text(source), "a \"// )\" \n/* b");
  EXPECT_EQ(non_code("FOR\"(x)\" // c"), (Texts{"s:\"(x)\"", "c:// c"})) << "not a raw prefix";
}

TEST(SourceRegions, UnterminatedTextRunsToTheEnd) {
  for (const std::string_view source :
       {"a /* open", "a \"open", "a 'o", "a R\"x(open", "a R\"open"}) {
    const auto regions = lex_regions(source);
    ASSERT_EQ(regions.size(), 2u) << source;
    EXPECT_FALSE(regions[1].closed) << source;
    EXPECT_EQ(regions[1].end, source.size()) << source;
  }
}

TEST(SourceRegions, AnOrdinaryLiteralEndsAtItsLine) {
  const std::string_view source = "s = \"open\nint x; // c\n";
  EXPECT_EQ(non_code(source), (Texts{"s:\"open", "c:// c"}));
  EXPECT_FALSE(lex_regions(source)[1].closed);
  EXPECT_EQ(non_code("s = \"a \\\nb\"; g();"), (Texts{"s:\"a \\\nb\""}))
      << "a backslash-newline continues it (the line is spliced first)";
  EXPECT_EQ(non_code("s = \"a \\\r\nb\"; g();"), (Texts{"s:\"a \\\r\nb\""})) << "CR LF too";
}

TEST(BlankSource, KeepsNewlinesOffsetsAndQuotes) {
  const std::string_view source = "f(\"a\\\"b\", '\\n'); /* x\ny */ g(); // z\nR\"d(q\n)d\" 1'0";
  EXPECT_EQ(blank_source(source, Blank::comments),
            "f(\"a\\\"b\", '\\n');     \n     g();     \nR\"d(q\n)d\" 1'0");
  EXPECT_EQ(blank_source(source, Blank::comments_and_literals),
            "f(\"    \", '  ');     \n     g();     \nR\"   \n  \" 1'0");
}

TEST(BlankSource, BlanksUnterminatedTextToTheEnd) {
  EXPECT_EQ(blank_source("a /* b\nc", Blank::comments), "a     \n ");
  EXPECT_EQ(blank_source("a \"b\nc", Blank::comments_and_literals), "a \" \nc");
  EXPECT_EQ(blank_source("a R\"(b\nc", Blank::comments_and_literals), "a R\"  \n ");
}

TEST(BlankSource, DigitSeparatorsHideNoComment) {
  EXPECT_EQ(blank_source("x = 0xFF'FF; /* '; */ y", Blank::comments), "x = 0xFF'FF;          y");
  EXPECT_EQ(blank_source("x = 1'0; // '", Blank::comments_and_literals), "x = 1'0;     ");
}

TEST(NumberEnd, TakesOnePreprocessingNumberWhole) {
  EXPECT_EQ(number_end("0xFF'FF;", 0), 7u);
  EXPECT_EQ(number_end("1e-16)", 0), 5u) << "a sign after an exponent letter";
  EXPECT_EQ(number_end("16.0f + 1", 0), 5u);
  EXPECT_EQ(number_end("16' ", 0), 2u) << "a quote is a separator only before a digit or letter";
  EXPECT_EQ(number_end("8-1", 0), 1u);
}

}  // namespace
}  // namespace kblaster
