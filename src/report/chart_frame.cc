#include "report/chart_frame.h"

#include "report/number_text.h"

namespace kblaster {

void draw_x_axis(Svg& svg, const Axis& axis, const PlotArea& area, std::string_view title,
                 TickText tick_text) {
  for (double t : axis.ticks) {
    const double x = area.x(axis, t);
    svg.line(x, area.top, x, area.bottom(), "grid");
    svg.text(x, area.bottom() + 14, tick_text(t), "tick", Anchor::middle);
  }
  svg.line(area.left, area.bottom(), area.right(), area.bottom(), "axis");
  svg.text(area.left + area.width / 2, area.bottom() + 30, title, "axis-title", Anchor::middle);
}

void draw_y_axis(Svg& svg, const Axis& axis, const PlotArea& area, std::string_view title,
                 TickText tick_text) {
  for (double t : axis.ticks) {
    const double y = area.y(axis, t);
    svg.line(area.left, y, area.right(), y, "grid");
    svg.text(area.left - 5, y + 4, tick_text(t), "tick", Anchor::end);
  }
  svg.line(area.left, area.top, area.left, area.bottom(), "axis");
  svg.vertical_text(area.left - 40, area.top + area.height / 2, title, "axis-title");
}

void draw_whisker(Svg& svg, const Axis& axis, const PlotArea& area, double y, const Estimate& e) {
  if (!e.low || !e.high) return;
  svg.line(area.x(axis, *e.low), y, area.x(axis, *e.high), y, "whisker");
  for (double end : {*e.low, *e.high})
    svg.line(area.x(axis, end), y - 4, area.x(axis, end), y + 4, "whisker");
}

std::string tick_number(double v) { return format_number(v, 3); }

std::string tick_ratio(double v) { return format_number(v, 3) + "\u00d7"; }

}  // namespace kblaster
