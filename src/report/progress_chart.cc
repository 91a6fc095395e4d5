#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "report/chart_frame.h"
#include "report/charts.h"

namespace kblaster {
namespace {

constexpr ChartBox kBox{
    .width = 320, .height = 220, .left = 56, .right = 12, .top = 12, .bottom = 42};

}  // namespace

std::string progress_chart(std::span<const ProgressPoint> points, std::string_view x_title,
                           std::string_view label) {
  std::vector<ProgressPoint> drawn;
  for (const auto& p : points)
    if (std::isfinite(p.x) && std::isfinite(p.best_speedup)) drawn.push_back(p);
  if (drawn.empty()) return "";
  std::vector<double> xs = {0.0}, ys = {1.0};
  for (const auto& p : drawn) xs.push_back(p.x), ys.push_back(p.best_speedup);
  const Axis x_axis = make_axis(xs, Scale::linear, 5);
  const Axis y_axis = make_axis(ys, Scale::linear, 5);
  const PlotArea area = kBox.plot();
  Svg svg(kBox.width, kBox.height, label);
  draw_x_axis(svg, x_axis, area, x_title, tick_number);
  draw_y_axis(svg, y_axis, area, "best verified speedup", tick_ratio);
  // A step line: the best holds until an evaluation improves it.
  std::vector<std::pair<double, double>> line = {{area.x(x_axis, 0.0), area.y(y_axis, 1.0)}};
  double best = 1.0;
  for (const auto& p : drawn) {
    line.emplace_back(area.x(x_axis, p.x), area.y(y_axis, best));
    best = p.best_speedup;
    line.emplace_back(area.x(x_axis, p.x), area.y(y_axis, best));
  }
  svg.polyline(line, "progress");
  for (const auto& p : drawn)
    svg.circle(area.x(x_axis, p.x), area.y(y_axis, p.best_speedup), 3, "point",
               tick_number(p.x) + ": " + tick_ratio(p.best_speedup));
  return std::move(svg).finish();
}

}  // namespace kblaster
