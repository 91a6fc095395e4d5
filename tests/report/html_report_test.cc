// The HTML report: self-contained, escaped, with its charts where the data allows.
#include "report/html_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "report_views.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string render(const ResultView& view) {
  return render_html(std::span<const ResultView>(&view, 1));
}

TEST(HtmlReport, NeedsNothingFromOutsideTheFileAndNoScript) {
  ResultView view = testing::check_view(3);
  view.kernels[0].search = {{.evaluation = 1, .elapsed_s = 2.0, .best_speedup = 1.2}};
  view.kernels[0].roofline =
      RooflineView{.dram_bytes_per_s = 4e12,
                   .flops_per_s = 5e13,
                   .points = {{.label = "before", .intensity = 10, .flops_per_s = 1e12}}};
  const std::string html = render(view);
  for (const char* outside : {"<script", "src=", "href=", "@import", "url(", "<link", "http:"})
    EXPECT_THAT(html, Not(HasSubstr(outside))) << outside;
  EXPECT_THAT(html, HasSubstr("@media (prefers-color-scheme: dark)"));
  EXPECT_THAT(html, HasSubstr("@media print"));
  for (const char* chart : {"time", "speedup", "progress-evaluations", "progress-time", "roofline"})
    EXPECT_THAT(html, HasSubstr("<figure data-chart=\"" + std::string(chart) + "\">")) << chart;
}

TEST(HtmlReport, EveryStringFromTheResultIsEscaped) {
  const std::string hostile = "<script>alert(1)</script>\"&'";
  ResultView view = testing::check_view(1, hostile);
  view.kernels[0].name = hostile;
  view.kernels[0].verification = {hostile};
  view.kernels[0].path = {hostile};
  view.kernels[0].search = {{.evaluation = 1, .elapsed_s = std::nullopt, .best_speedup = 1.1}};
  view.kernels[0].profile->rows[0].metric = hostile;
  view.kernels[0].profile->state_after = hostile;
  view.title = hostile;
  view.notes = {hostile};
  view.facts = {{"GPU", hostile}};
  view.origin = hostile;
  const std::string html = render(view);
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("\"&'")));
  const std::string escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&#39;";
  std::size_t seen = 0;
  for (auto at = html.find(escaped); at != std::string::npos; at = html.find(escaped, at + 1))
    ++seen;
  EXPECT_GE(seen, 12u) << "title, headline, note, table name and reason, chart tooltips, "
                          "search, profile, verification, provenance, origin";
}

TEST(HtmlReport, AResultWithoutTimingsHasNoCharts) {
  ResultView view = testing::check_view(1);
  view.kernels[0].ratio.reset();
  view.kernels[0].profile.reset();
  const std::string html = render(view);
  EXPECT_THAT(html, Not(HasSubstr("<svg")));
  EXPECT_THAT(html, HasSubstr("<td class=\"num\">\u2013</td>"));
}

TEST(HtmlReport, ASearchWithoutStepTimesSaysWhyItHasNoWallTimeChart) {
  ResultView view = testing::check_view(1);
  view.kernels[0].search = {{.evaluation = 1, .elapsed_s = std::nullopt, .best_speedup = 1.2}};
  const std::string html = render(view);
  EXPECT_THAT(html, HasSubstr("data-chart=\"progress-evaluations\""));
  EXPECT_THAT(html, Not(HasSubstr("data-chart=\"progress-time\"")));
  EXPECT_THAT(html, HasSubstr("records no time per evaluation"));
}

}  // namespace
}  // namespace kblaster
