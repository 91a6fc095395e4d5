// The charts on synthetic data: nothing to draw, one point, equal values, huge
// ratios, NaN and missing CIs. Every chart stays inside its own image and never
// writes "nan" or "inf".
#include "report/charts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <regex>

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

Estimate with_ci(double v, double lo, double hi) { return {.value = v, .low = lo, .high = hi}; }

// Every coordinate inside the viewBox, no non-finite number, and how many `element`s.
void expect_well_formed(const std::string& svg) {
  ASSERT_FALSE(svg.empty());
  EXPECT_THAT(svg, Not(HasSubstr("nan")));
  EXPECT_THAT(svg, Not(HasSubstr("inf\"")));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, std::regex(R"re(viewBox="0 0 ([0-9.]+) ([0-9.]+)")re")));
  const double width = std::stod(m[1]), height = std::stod(m[2]);
  const std::regex coord(R"re(\b(x|x1|x2|cx|y|y1|y2|cy)="(-?[0-9.e+]+)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), coord); it != std::sregex_iterator();
       ++it) {
    const double v = std::stod((*it)[2]);
    const double limit = (*it)[1].str()[0] == 'x' || (*it)[1].str()[0] == 'c' ? width : height;
    EXPECT_GE(v, -0.5) << it->str();
    EXPECT_LE(v, limit + 0.5) << it->str();
  }
  EXPECT_EQ(svg.rfind("</svg>"), svg.size() - 6);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Charts, NothingToDrawIsNoChart) {
  EXPECT_EQ(time_chart({}, "time"), "");
  EXPECT_EQ(speedup_chart({}), "");
  EXPECT_EQ(progress_chart({}, "evaluations", "x"), "");
  const std::vector<ProgressPoint> all_nan = {{.x = kNaN, .best_speedup = 1.0}};
  EXPECT_EQ(progress_chart(all_nan, "evaluations", "x"), "");
  EXPECT_EQ(roofline_chart(RooflineView{}, "roofline"), "") << "no ceilings";
}

TEST(Charts, TimeChartDrawsTwoBarsAndWhiskersPerKernel) {
  const std::vector<TimeBars> rows = {{.label = "axpy",
                                       .base = exact(1.0),
                                       .head = with_ci(12.37, 12.32, 12.55),
                                       .base_text = "1x",
                                       .head_text = "12.37x",
                                       .tone = Tone::bad},
                                      {.label = "softmax",
                                       .base = exact(1.0),
                                       .head = exact(1.0045),
                                       .base_text = "1x",
                                       .head_text = "1.0045x",
                                       .tone = Tone::neutral}};
  const std::string svg = time_chart(rows, "relative time");
  expect_well_formed(svg);
  EXPECT_EQ(count(svg, "class=\"bar base\""), 3u) << "two bars and the legend";
  EXPECT_EQ(count(svg, "class=\"bar head bad\""), 1u);
  EXPECT_EQ(count(svg, "class=\"whisker\""), 3u) << "one CI: a line and two caps";
  EXPECT_THAT(svg, HasSubstr(">relative time<"));
}

TEST(Charts, SpeedupChartSurvivesHugeRatiosZeroAndNaN) {
  const std::vector<SpeedupBar> rows = {
      {.label = "huge", .speedup = with_ci(1e12, 1e11, 1e13), .tone = Tone::good},
      {.label = "tiny", .speedup = with_ci(1e-12, 1e-13, 1e-11), .tone = Tone::bad},
      {.label = "zero", .speedup = exact(0.0), .tone = Tone::bad},
      {.label = "not a number", .speedup = {.value = kNaN, .low = kNaN, .high = std::nullopt}},
      {.label = "equal", .speedup = with_ci(1.0, 1.0, 1.0)}};
  const std::string svg = speedup_chart(rows);
  expect_well_formed(svg);
  EXPECT_EQ(count(svg, "class=\"bar good\""), 1u);
  EXPECT_EQ(count(svg, "class=\"bar bad\""), 1u) << "a zero speedup cannot sit on a log axis";
  EXPECT_THAT(svg, HasSubstr(">n/a<")) << "the NaN kernel's value reads n/a";
}

TEST(Charts, ProgressChartStepsThroughOnePointAndEqualValues) {
  const std::vector<ProgressPoint> one = {{.x = 1, .best_speedup = 1.2}};
  const std::string svg = progress_chart(one, "evaluations", "best");
  expect_well_formed(svg);
  EXPECT_EQ(count(svg, "<circle"), 1u);
  EXPECT_THAT(svg, HasSubstr("<polyline class=\"progress\""));
  const std::vector<ProgressPoint> flat = {
      {.x = 1, .best_speedup = 1.0}, {.x = 2, .best_speedup = 1.0}, {.x = 3, .best_speedup = kNaN}};
  const std::string level = progress_chart(flat, "evaluations", "best");
  expect_well_formed(level);
  EXPECT_EQ(count(level, "<circle"), 2u) << "the NaN point is left out";
}

TEST(Charts, RooflineDrawsTheRoofAndNamesPointsItCannotPlace) {
  RooflineView view{.dram_bytes_per_s = 4.2e12,
                    .flops_per_s = 54e12,
                    .points = {{.label = "before", .intensity = 256, .flops_per_s = 5.4e12},
                               {.label = "after", .intensity = 256, .flops_per_s = 6.5e12},
                               {.label = "memory-only", .intensity = 0, .flops_per_s = 0}}};
  const std::string svg = roofline_chart(view, "roofline");
  expect_well_formed(svg);
  EXPECT_THAT(svg, HasSubstr("<polyline class=\"roof\""));
  EXPECT_EQ(count(svg, "<circle"), 2u);
  EXPECT_EQ(count(svg, "class=\"move\""), 1u);
  EXPECT_THAT(svg, HasSubstr("not drawn (no FLOPs counted): memory-only"));
}

TEST(Charts, LabelsAreEscapedAndShortened) {
  const std::vector<SpeedupBar> rows = {
      {.label = "<script>alert(1)</script>\"&'", .speedup = exact(2.0), .tone = Tone::good}};
  const std::string svg = speedup_chart(rows);
  EXPECT_THAT(svg, Not(HasSubstr("<script>")));
  EXPECT_THAT(svg, HasSubstr("&lt;script&gt;alert(1\u2026"));
  EXPECT_THAT(svg, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&#39;: 2\u00d7"))
      << "the tooltip carries the whole name";
}

}  // namespace
}  // namespace kblaster
