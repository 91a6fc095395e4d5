#include "report/chart_frame.h"
#include "report/charts.h"
#include "report/number_text.h"

namespace kblaster {
namespace {

constexpr double kWidth = 500, kLabelWidth = 120, kValueWidth = 64, kTop = 10, kBottom = 40;
constexpr double kRowHeight = 26, kBarHeight = 14;

}  // namespace

std::string speedup_chart(std::span<const SpeedupBar> rows) {
  if (rows.empty()) return "";
  std::vector<double> values = {1.0};
  for (const auto& r : rows) {
    values.push_back(r.speedup.value);
    if (r.speedup.low) values.push_back(*r.speedup.low);
    if (r.speedup.high) values.push_back(*r.speedup.high);
  }
  const Axis axis = make_axis(values, Scale::log);
  const PlotArea area{.left = kLabelWidth,
                      .top = kTop,
                      .width = kWidth - kLabelWidth - kValueWidth,
                      .height = kRowHeight * static_cast<double>(rows.size())};
  Svg svg(kWidth, kTop + area.height + kBottom, "speedup per kernel (base time / head time)");
  draw_x_axis(svg, axis, area, "speedup: base time / head time (log scale; > 1× is faster)",
              tick_ratio);
  const double one = area.x(axis, 1.0);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const SpeedupBar& r = rows[i];
    const double y = area.top + kRowHeight * static_cast<double>(i) + (kRowHeight - kBarHeight) / 2;
    const std::string text = format_ratio(r.speedup.value);
    svg.text(kLabelWidth - 8, y + kBarHeight - 3, shorten(r.label, 16), "label", Anchor::end);
    svg.rect(one, y, area.x(axis, r.speedup.value) - one, kBarHeight,
             "bar " + std::string(tone_name(r.tone)), r.label + ": " + format_ratio(r.speedup));
    draw_whisker(svg, axis, area, y + kBarHeight / 2, r.speedup);
    svg.text(area.right() + 6, y + kBarHeight - 3, text, "value");
  }
  svg.line(one, area.top, one, area.bottom(), "reference");
  return std::move(svg).finish();
}

}  // namespace kblaster
