#include "llm/review_verdict.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(ParseReview, ReadsYesAndNoWithTheirReasons) {
  const auto yes = parse_review("VERDICT: yes\nTiling keeps every output element computed.");
  EXPECT_EQ(yes.answer, ReviewAnswer::yes);
  EXPECT_TRUE(yes.accepts());
  EXPECT_EQ(yes.reason, "Tiling keeps every output element computed.");
  const auto no = parse_review(
      "VERDICT: no\nThe kernel returns early when n == 16777216,\nso it skips the work.");
  EXPECT_EQ(no.answer, ReviewAnswer::no);
  EXPECT_FALSE(no.accepts());
  EXPECT_EQ(no.reason, "The kernel returns early when n == 16777216, so it skips the work.");
}

TEST(ParseReview, ToleratesCaseMarkdownAndAReasonOnTheSameLine) {
  const auto bold = parse_review("\n\n**VERDICT: NO** — a static buffer caches the output.\r\n");
  EXPECT_EQ(bold.answer, ReviewAnswer::no);
  EXPECT_EQ(bold.reason, "a static buffer caches the output.");
  const auto label = parse_review("**Verdict:** Yes.\nFine.");
  EXPECT_EQ(label.answer, ReviewAnswer::yes);
  EXPECT_EQ(label.reason, "Fine.");
  const auto heading = parse_review("## `verdict: yes`");
  EXPECT_EQ(heading.answer, ReviewAnswer::yes);
  EXPECT_EQ(heading.reason, "the review gave no reason");
}

TEST(ParseReview, AnythingElseIsUnreadableAndRejects) {
  for (const char* text : {"", "Looks good to me!\nVERDICT: yes", "VERDICT yes", "VERDICT: maybe",
                           "VERDICT: yesno", "VERDICT: nope", "verdict - yes"}) {
    const auto v = parse_review(text);
    EXPECT_EQ(v.answer, ReviewAnswer::unreadable) << text;
    EXPECT_FALSE(v.accepts()) << text;
    EXPECT_TRUE(v.reason.starts_with("unreadable review")) << text;
  }
  EXPECT_EQ(review_answer_name(ReviewAnswer::unreadable), "unreadable");
}

TEST(ParseReview, ALongReasonIsBounded) {
  std::string reason;
  for (int i = 0; i < 200; ++i) reason += "It skips work. ";
  const auto v = parse_review("VERDICT: no\n" + reason);
  EXPECT_EQ(v.answer, ReviewAnswer::no);
  EXPECT_LE(v.reason.size(), kMaxReviewReasonBytes);
  EXPECT_TRUE(v.reason.ends_with("work.")) << v.reason;
}

}  // namespace
}  // namespace kblaster
