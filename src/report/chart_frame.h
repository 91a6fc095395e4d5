// What every chart draws around its data: the plot's rectangle, gridlines at the
// axis ticks with their labels, and the axis titles.
#pragma once

#include <string>
#include <string_view>

#include "report/axis.h"
#include "report/result_view.h"
#include "report/svg.h"

namespace kblaster {

// The plot's rectangle in the image; x grows right, y grows up.
struct PlotArea {
  double left = 0.0, top = 0.0, width = 0.0, height = 0.0;
  double x(const Axis& a, double v) const { return left + a.position(v) * width; }
  double y(const Axis& a, double v) const { return top + (1.0 - a.position(v)) * height; }
  double right() const { return left + width; }
  double bottom() const { return top + height; }
};

// A chart's image size and the margins around its plot, which hold the axes.
struct ChartBox {
  double width = 0.0, height = 0.0;
  double left = 0.0, right = 0.0, top = 0.0, bottom = 0.0;
  PlotArea plot() const {
    return {
        .left = left, .top = top, .width = width - left - right, .height = height - top - bottom};
  }
};

// How a tick's value reads: format_number, format_si, or a ratio with "×".
using TickText = std::string (*)(double);

// Vertical gridlines at `axis`'s ticks across `area`, their labels below it, and
// `title` under them.
void draw_x_axis(Svg& svg, const Axis& axis, const PlotArea& area, std::string_view title,
                 TickText tick_text);

// Horizontal gridlines at `axis`'s ticks, their labels left of `area`, and `title`
// turned along the left edge.
void draw_y_axis(Svg& svg, const Axis& axis, const PlotArea& area, std::string_view title,
                 TickText tick_text);

// The CI of `e` as a horizontal whisker with end caps at height `y`; nothing when
// `e` has no bounds.
void draw_whisker(Svg& svg, const Axis& axis, const PlotArea& area, double y, const Estimate& e);

// Tick texts: three significant digits; the same with "×".
std::string tick_number(double v);
std::string tick_ratio(double v);

}  // namespace kblaster
