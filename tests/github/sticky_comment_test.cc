#include "github/sticky_comment.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(StickyComment, TheMarkerOnTheFirstLineNamesTheKeyAndCarriesTheDigest) {
  const std::string body = sticky_body("check", "a1b2", "## kblaster: 1 kernel slower\n");
  EXPECT_EQ(body, "<!-- kblaster:sticky key=check digest=a1b2 -->\n## kblaster: 1 kernel slower\n");
  EXPECT_TRUE(is_sticky_comment(body, "check"));
  EXPECT_FALSE(is_sticky_comment(body, "optimize")) << "each workflow keeps its own comment";
  EXPECT_FALSE(is_sticky_comment(body, "chec"));
  EXPECT_EQ(sticky_digest(body), "a1b2");
  EXPECT_FALSE(is_sticky_comment("> quoting it:\n" + body, "check"))
      << "a comment that quotes the marker is someone else's";
  EXPECT_EQ(sticky_digest("no marker here"), "");
}

TEST(StickyComment, EachModeDecidesBetweenCreateEditAndLeave) {
  const std::string old = sticky_body("check", "aaaa", "old");
  EXPECT_EQ(decide_comment(CommentMode::always, std::nullopt, "aaaa"), CommentAction::create);
  EXPECT_EQ(decide_comment(CommentMode::always, old, "aaaa"), CommentAction::edit);
  EXPECT_EQ(decide_comment(CommentMode::on_change, std::nullopt, "aaaa"), CommentAction::create);
  EXPECT_EQ(decide_comment(CommentMode::on_change, old, "aaaa"), CommentAction::leave);
  EXPECT_EQ(decide_comment(CommentMode::on_change, old, "bbbb"), CommentAction::edit);
  EXPECT_EQ(decide_comment(CommentMode::never, std::nullopt, "aaaa"), CommentAction::leave);
  EXPECT_EQ(decide_comment(CommentMode::never, old, "bbbb"), CommentAction::leave);
}

TEST(StickyComment, ModesReadAndPrintByTheirFlagNames) {
  for (auto mode : {CommentMode::always, CommentMode::on_change, CommentMode::never})
    EXPECT_EQ(parse_comment_mode(comment_mode_name(mode)), mode);
  EXPECT_EQ(comment_mode_name(CommentMode::on_change), "on-change");
  EXPECT_FALSE(parse_comment_mode("sometimes"));
}

}  // namespace
}  // namespace kblaster
