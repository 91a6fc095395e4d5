#include "report/html_figures.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "report/charts.h"
#include "core/markup_escape.h"
#include "report/kernel_text.h"
#include "report/number_text.h"
#include "report/view_fields.h"

namespace kblaster {
namespace {

std::string figure(std::string_view name, std::string_view caption, const std::string& svg) {
  if (svg.empty()) return "";
  return "<figure data-chart=\"" + std::string(name) + "\"><figcaption>" + html_escape(caption) +
         "</figcaption>" + svg + "</figure>\n";
}

// A time unit that reads well for times up to `largest` seconds: its name and scale.
std::pair<const char*, double> time_unit(double largest) {
  if (largest < 1e-3) return {"\u00b5s", 1e6};
  if (largest < 1.0) return {"ms", 1e3};
  return {"s", 1.0};
}

Estimate scaled(const Estimate& e, double by) {
  auto times = [by](std::optional<double> v) { return v ? std::optional(*v * by) : v; };
  return {.value = e.value * by, .low = times(e.low), .high = times(e.high)};
}

std::string time_figure(const ResultView& r) {
  std::vector<std::pair<const KernelView*, TimePair>> pairs;
  bool relative = false;
  double largest = 0.0;
  for (const auto& k : r.kernels)
    if (auto p = time_pair(k)) {
      relative = relative || p->relative;
      largest = std::max({largest, p->base.value, p->head.value});
      pairs.emplace_back(&k, *p);
    }
  const auto [unit, scale] = time_unit(largest);
  std::vector<TimeBars> rows;
  for (const auto& [k, p] : pairs) {
    // Mixed results: all relative, so that every row shares one axis.
    const Estimate base = relative ? exact(1.0) : scaled(p.base, scale);
    const Estimate head =
        relative ? (k->ratio ? *k->ratio : exact(std::nan(""))) : scaled(p.head, scale);
    rows.push_back({.label = k->name,
                    .base = base,
                    .head = head,
                    .base_text = relative ? "1\u00d7" : format_number(base.value, 3) + " " + unit,
                    .head_text = relative ? format_ratio(head.value)
                                          : format_number(head.value, 3) + " " + unit,
                    .tone = finding_tone(k->finding)});
  }
  const std::string title = relative ? "head time relative to base (base = 1\u00d7), with CI"
                                     : std::string("time (") + unit + "), with CI";
  return figure("time", "Base and head time per kernel", time_chart(rows, title));
}

std::string speedup_figure(const ResultView& r) {
  std::vector<SpeedupBar> rows;
  for (const auto& k : r.kernels)
    if (k.ratio)
      rows.push_back(
          {.label = k.name, .speedup = reciprocal(*k.ratio), .tone = finding_tone(k.finding)});
  return figure("speedup", "Speedup per kernel, with CI", speedup_chart(rows));
}

}  // namespace

std::string result_figures(const ResultView& r) {
  const std::string figures = time_figure(r) + speedup_figure(r);
  return figures.empty() ? "" : "<div class=\"charts\">\n" + figures + "</div>\n";
}

std::string kernel_figures(const KernelView& k) {
  std::string figures;
  if (!k.search.empty()) {
    std::vector<ProgressPoint> by_evaluation, by_time;
    for (const auto& p : k.search) {
      by_evaluation.push_back(
          {.x = static_cast<double>(p.evaluation), .best_speedup = p.best_speedup});
      if (p.elapsed_s) by_time.push_back({.x = *p.elapsed_s, .best_speedup = p.best_speedup});
    }
    figures +=
        figure("progress-evaluations", "Best verified speedup against evaluations",
               progress_chart(by_evaluation, "evaluations", k.name + ": best against evaluations"));
    figures +=
        by_time.size() == k.search.size()
            ? figure("progress-time", "Best verified speedup against wall time",
                     progress_chart(by_time, "wall time (s)", k.name + ": best against wall time"))
            : "<p class=\"note\">The result records no time per evaluation, so there is no "
              "chart against wall time.</p>\n";
  }
  // A workload that declares no FLOPs has no place in FLOP/s: say so instead.
  const bool placed =
      k.roofline && std::any_of(k.roofline->points.begin(), k.roofline->points.end(),
                                [](const auto& p) { return p.intensity > 0 && p.flops_per_s > 0; });
  if (placed)
    figures += figure("roofline", "Roofline, before and after",
                      roofline_chart(*k.roofline, k.name + ": roofline"));
  else if (k.roofline)
    figures +=
        "<p class=\"note\">No roofline: the kernel declares no FLOPs (<code>flops</code> in its "
        "spec), so it has no place in FLOP/s.</p>\n";
  return figures.empty() ? "" : "<div class=\"charts\">\n" + figures + "</div>\n";
}

}  // namespace kblaster
