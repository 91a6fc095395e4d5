// Strings from results (kernel names and reasons come from untrusted PRs) cannot
// become markup.
#include "core/markup_escape.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(Escape, HtmlTurnsEveryMarkupCharacterIntoAnEntity) {
  EXPECT_EQ(html_escape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(html_escape("\"&'"), "&quot;&amp;&#39;");
  EXPECT_EQ(html_escape(std::string("a\0b\x1b[31mc\td", 11)), "ab[31mc\td")
      << "control characters dropped, tab kept";
  EXPECT_EQ(html_escape("µs → ok"), "µs → ok") << "UTF-8 passes through";
}

TEST(Escape, MarkdownLetsNoHtmlNoMarkupAndNoMentionThrough) {
  EXPECT_EQ(markdown_escape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(markdown_escape("\"&'"), "\"&amp;'");
  EXPECT_EQ(markdown_escape("a|b `c` *d* _e_ [f](g) ~h~ \\"),
            "a\\|b \\`c\\` \\*d\\* \\_e\\_ \\[f\\](g) \\~h\\~ \\\\");
  EXPECT_EQ(markdown_escape("cc @maintainer"), "cc &#64;maintainer");
  EXPECT_EQ(markdown_escape("two\nlines\r"), "two lines ") << "a table cell stays one line";
}

TEST(Escape, ACodeSpanShowsItsTextExactlyWhateverBackticksItHolds) {
  EXPECT_EQ(markdown_code_span("launch_geometry_tuning"), "`launch_geometry_tuning`")
      << "no backslashes: a code span shows them";
  EXPECT_EQ(markdown_code_span("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code_span("`x``"), "``` `x`` ```");
  EXPECT_EQ(markdown_code_span("two\nlines"), "`two lines`");
  EXPECT_EQ(markdown_code_span("<img src=x> @someone"), "`<img src=x> @someone`")
      << "a code span renders no HTML and mentions no one";
}

}  // namespace
}  // namespace kblaster
