#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "report/chart_frame.h"
#include "report/charts.h"
#include "report/number_text.h"

namespace kblaster {
namespace {

constexpr ChartBox kBox{
    .width = 480, .height = 300, .left = 64, .right = 16, .top = 14, .bottom = 58};

bool drawable(const RooflinePoint& p) {
  return std::isfinite(p.intensity) && p.intensity > 0 && std::isfinite(p.flops_per_s) &&
         p.flops_per_s > 0;
}

}  // namespace

std::string roofline_chart(const RooflineView& view, std::string_view label) {
  const double bw = view.dram_bytes_per_s, peak = view.flops_per_s;
  if (!(std::isfinite(bw) && bw > 0 && std::isfinite(peak) && peak > 0)) return "";
  const double ridge = peak / bw;  // FLOP/byte where the memory roof meets the compute roof
  std::vector<double> xs = {ridge / 10, ridge * 10};
  std::vector<double> ys = {peak * 1.05};
  std::vector<const RooflinePoint*> points;
  std::string missing;
  for (const auto& p : view.points) {
    if (!drawable(p)) {
      missing += (missing.empty() ? "" : ", ") + p.label;
      continue;
    }
    points.push_back(&p);
    xs.push_back(p.intensity), ys.push_back(p.flops_per_s);
  }
  const Axis x_axis = make_axis(xs, Scale::log, 6);
  ys.push_back(x_axis.lo * bw);
  const Axis y_axis = make_axis(ys, Scale::log, 6);
  const PlotArea area = kBox.plot();
  Svg svg(kBox.width, kBox.height, label);
  draw_x_axis(svg, x_axis, area, "arithmetic intensity (FLOP per DRAM byte)", format_si);
  draw_y_axis(svg, y_axis, area, "FLOP/s", format_si);
  const std::vector<std::pair<double, double>> roof = {
      {area.x(x_axis, x_axis.lo), area.y(y_axis, x_axis.lo * bw)},
      {area.x(x_axis, ridge), area.y(y_axis, peak)},
      {area.x(x_axis, x_axis.hi), area.y(y_axis, peak)}};
  svg.polyline(roof, "roof");
  svg.text(area.right() - 4, area.y(y_axis, peak) - 6, "FP32 " + format_si(peak) + "FLOP/s", "note",
           Anchor::end);
  svg.text(area.left + 6, area.y(y_axis, x_axis.lo * bw) - 8, "DRAM " + format_si(bw) + "B/s",
           "note");
  for (std::size_t i = 1; i < points.size(); ++i)
    svg.line(area.x(x_axis, points[i - 1]->intensity), area.y(y_axis, points[i - 1]->flops_per_s),
             area.x(x_axis, points[i]->intensity), area.y(y_axis, points[i]->flops_per_s), "move");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const RooflinePoint& p = *points[i];
    const double x = area.x(x_axis, p.intensity), y = area.y(y_axis, p.flops_per_s);
    svg.circle(x, y, 5, i + 1 == points.size() ? "point last" : "point",
               p.label + ": " + format_si(p.intensity) + " FLOP/byte, " + format_si(p.flops_per_s) +
                   "FLOP/s");
    // The first point labelled on its left, the others on their right, so that
    // before and after do not overlap when they are close.
    if (i == 0)
      svg.text(x - 8, y + 14, p.label, "label", Anchor::end);
    else
      svg.text(x + 8, y - 6, p.label, "label");
  }
  if (!missing.empty())
    svg.text(area.left, kBox.height - 6, "not drawn (no FLOPs counted): " + missing, "note");
  return std::move(svg).finish();
}

}  // namespace kblaster
