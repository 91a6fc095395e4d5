#include "report/chart_frame.h"
#include "report/charts.h"

namespace kblaster {
namespace {

constexpr double kWidth = 500, kLabelWidth = 120, kValueWidth = 64, kTop = 26, kBottom = 40;
constexpr double kRowHeight = 40, kBarHeight = 12;

void bar(Svg& svg, const PlotArea& area, const Axis& axis, double y, const Estimate& e,
         const std::string& text, const std::string& cls, const std::string& tooltip) {
  const double x0 = area.x(axis, axis.scale == Scale::log ? axis.lo : 0.0);
  svg.rect(x0, y, area.x(axis, e.value) - x0, kBarHeight, "bar " + cls, tooltip);
  draw_whisker(svg, axis, area, y + kBarHeight / 2, e);
  svg.text(area.right() + 6, y + kBarHeight - 2, text, "value");
}

}  // namespace

std::string time_chart(std::span<const TimeBars> rows, std::string_view axis_title) {
  std::vector<double> values = {0.0};
  for (const auto& r : rows)
    for (const Estimate* e : {&r.base, &r.head}) {
      values.push_back(e->value);
      if (e->low) values.push_back(*e->low);
      if (e->high) values.push_back(*e->high);
    }
  if (rows.empty()) return "";
  const Scale scale = scale_for(values);
  const Axis axis = make_axis(values, scale);
  const PlotArea area{.left = kLabelWidth,
                      .top = kTop,
                      .width = kWidth - kLabelWidth - kValueWidth,
                      .height = kRowHeight * static_cast<double>(rows.size())};
  Svg svg(kWidth, kTop + area.height + kBottom, "base and head time per kernel");
  draw_x_axis(svg, axis, area, axis_title, tick_number);
  svg.rect(area.left, 6, 10, 10, "bar base");
  svg.text(area.left + 14, 15, "base", "legend");
  svg.rect(area.left + 60, 6, 10, 10, "bar head neutral");
  svg.text(area.left + 74, 15, "head, coloured by its verdict", "legend");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const TimeBars& r = rows[i];
    const double y = area.top + kRowHeight * static_cast<double>(i) + 6;
    svg.text(kLabelWidth - 8, y + kBarHeight + 4, shorten(r.label, 16), "label", Anchor::end);
    bar(svg, area, axis, y, r.base, r.base_text, "base", r.label + " at base: " + r.base_text);
    bar(svg, area, axis, y + kBarHeight + 3, r.head, r.head_text,
        "head " + std::string(tone_name(r.tone)), r.label + " at head: " + r.head_text);
  }
  return std::move(svg).finish();
}

}  // namespace kblaster
