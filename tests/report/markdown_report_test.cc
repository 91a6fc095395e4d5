// The Markdown report: its headline and table, its details, and the 65,536-character
// limit, tested at the boundary.
#include "report/markdown_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report_views.h"

namespace kblaster {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::string render(const ResultView& view, std::size_t max = kMaxMarkdownChars) {
  return render_markdown(std::span<const ResultView>(&view, 1), max);
}

TEST(MarkdownReport, TheLimitIsGitHubs) { EXPECT_EQ(kMaxMarkdownChars, 65536u); }

TEST(MarkdownReport, HeadlineTableAndDetails) {
  const std::string md = render(testing::check_view(2));
  EXPECT_THAT(md, StartsWith("## kblaster: 2 kernels slower\n\n### check 1111111..2222222\n\n"
                             "2 kernels slower.\n\n| kernel | base | head | head/base time (CI) | "
                             "verdict | reason |\n"));
  EXPECT_THAT(md, HasSubstr("| k1 | built | built | 1.5\u00d7 (1.4\u20131.6) | \U0001F534 SLOWER | "
                            "slower by 50% |\n"));
  EXPECT_THAT(md,
              HasSubstr("<details><summary>Verification</summary>\n\n- **k0**: head: verified"));
  EXPECT_THAT(md, HasSubstr("<details><summary>Profile deltas</summary>"));
  EXPECT_THAT(md, HasSubstr("| duration | 10 us | 15 us | +50.0% |\n"));
  EXPECT_THAT(md, HasSubstr("| DRAM throughput | 80 % | \u2013 |  |\n"));
  EXPECT_THAT(md, HasSubstr("<details><summary>Provenance</summary>\n\n- GPU: NVIDIA H200\n"));
  EXPECT_THAT(md, Not(HasSubstr("Cut to fit")));
}

TEST(MarkdownReport, AtTheLimitNothingIsCutAndOneCharacterMoreCutsDetailsFirst) {
  ResultView view = testing::check_view(40);
  const std::size_t base = render(view).size();
  ASSERT_LT(base, kMaxMarkdownChars);
  view.kernels[0].reason += std::string(kMaxMarkdownChars - base, 'x');
  const std::string full = render(view);
  EXPECT_EQ(full.size(), kMaxMarkdownChars);
  EXPECT_THAT(full, Not(HasSubstr("Cut to fit")));

  view.kernels[0].reason += "x";
  const std::string cut = render(view);
  EXPECT_LE(cut.size(), kMaxMarkdownChars);
  EXPECT_THAT(cut, EndsWith("\n_Cut to fit 65536 characters: Provenance (1 result)._\n"));
  EXPECT_THAT(cut, Not(HasSubstr("<summary>Provenance")));
  EXPECT_THAT(cut, HasSubstr("<summary>Profile deltas"));
  EXPECT_THAT(cut, HasSubstr("| k39 |")) << "every row stays";
}

TEST(MarkdownReport, TooManyKernelsCutEveryDetailThenRowsFromTheEnd) {
  const ResultView view = testing::check_view(3000, std::string(40, 'r'));
  const std::string md = render(view);
  EXPECT_LE(md.size(), kMaxMarkdownChars);
  EXPECT_THAT(md, StartsWith("## kblaster: 3000 kernels slower\n")) << "counts every kernel";
  EXPECT_THAT(md, HasSubstr("| k0 |"));
  EXPECT_THAT(md, Not(HasSubstr("| k2999 |")));
  EXPECT_THAT(md, Not(HasSubstr("<details>")));
  EXPECT_THAT(md, HasSubstr("_Cut to fit 65536 characters: Provenance (1 result), Profile deltas "
                            "(1 result), Verification (1 result), kernel rows ("));
}

TEST(MarkdownReport, HeadingsLongerThanTheLimitAreCutMidText) {
  ResultView view = testing::check_view(1);
  view.notes = {std::string(5000, 'n')};
  const std::string md = render(view, 1000);
  EXPECT_LE(md.size(), 1000u);
  EXPECT_THAT(md, EndsWith("kernel rows (1), the rest of the text._\n"));
}

TEST(MarkdownReport, StringsFromTheResultCannotBecomeMarkup) {
  ResultView view = testing::check_view(1, "reason | with <b>html</b> and @someone");
  view.kernels[0].name = "<script>alert(1)</script>\"&'";
  const std::string md = render(view);
  EXPECT_THAT(md, Not(HasSubstr("<script>")));
  EXPECT_THAT(md, Not(HasSubstr("<b>")));
  EXPECT_THAT(md, Not(HasSubstr("@someone")));
  EXPECT_THAT(md, HasSubstr("| &lt;script&gt;alert(1)&lt;/script&gt;\"&amp;' | built"));
  EXPECT_THAT(md, HasSubstr("reason \\| with &lt;b&gt;html&lt;/b&gt; and &#64;someone |"));
}

}  // namespace
}  // namespace kblaster
