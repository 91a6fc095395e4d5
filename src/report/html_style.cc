#include "report/html_style.h"

namespace kblaster {

std::string_view report_css() {
  return R"CSS(
:root { color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --grid: #d8dee4; --rule: #d1d9e0;
  --panel: #f6f8fa; --base: #8c959f; --good: #1a7f37; --bad: #cf222e; --neutral: #5a6fd6;
  --accent: #0969da; }
@media (prefers-color-scheme: dark) { :root {
  --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --grid: #30363d; --rule: #3d444d;
  --panel: #151b23; --base: #6e7681; --good: #3fb950; --bad: #f85149; --neutral: #8b9cf7;
  --accent: #4493f8; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 4px; padding-top: 16px; border-top: 1px solid var(--rule); }
h3 { font-size: 15px; margin: 20px 0 6px; }
.headline { font-size: 16px; font-weight: 600; margin: 4px 0 12px; }
.note { color: var(--muted); border-left: 3px solid var(--rule); padding-left: 10px; }
.note.warning { color: var(--fg); border-left-color: var(--bad); }
table { border-collapse: collapse; margin: 8px 0 16px; width: 100%; }
th, td { border: 1px solid var(--rule); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.reason { color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
td.name { font-family: ui-monospace, "DejaVu Sans Mono", monospace; overflow-wrap: break-word; }
table.profile { width: auto; min-width: 50%; }
.verdict { font-weight: 700; white-space: nowrap; }
.verdict.good { color: var(--good); } .verdict.bad { color: var(--bad); }
.verdict.neutral { color: var(--neutral); }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure { margin: 0; padding: 8px; background: var(--panel); border: 1px solid var(--rule);
  border-radius: 6px; max-width: 100%; }
figcaption { font-size: 13px; color: var(--muted); margin-bottom: 4px; }
svg.chart { display: block; max-width: 100%; height: auto; font-size: 11px; }
svg.chart text { fill: var(--fg); }
svg.chart .tick, svg.chart .note, svg.chart .axis-title { fill: var(--muted); }
svg.chart .grid { stroke: var(--grid); stroke-width: 1; }
svg.chart .axis { stroke: var(--muted); stroke-width: 1; }
svg.chart .reference { stroke: var(--fg); stroke-width: 1.5; stroke-dasharray: 4 3; }
svg.chart .bar.base { fill: var(--base); }
svg.chart .bar.good { fill: var(--good); } svg.chart .bar.bad { fill: var(--bad); }
svg.chart .bar.neutral { fill: var(--neutral); }
svg.chart .whisker { stroke: var(--fg); stroke-width: 1.5; }
svg.chart .progress { fill: none; stroke: var(--accent); stroke-width: 2; }
svg.chart .roof { fill: none; stroke: var(--muted); stroke-width: 2.5; }
svg.chart .move { stroke: var(--accent); stroke-width: 1.5; stroke-dasharray: 3 2; }
svg.chart .point { fill: var(--bg); stroke: var(--accent); stroke-width: 2; }
svg.chart .point.last { fill: var(--accent); }
details { margin: 8px 0; } summary { cursor: pointer; font-weight: 600; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0; }
dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
@media print {
  :root { --bg: #fff; --fg: #000; --muted: #333; --panel: #fff; --grid: #ccc; --rule: #999;
    --base: #8c959f; --good: #1a7f37; --bad: #cf222e; --neutral: #5a6fd6; --accent: #0969da; }
  main { max-width: none; padding: 0; }
  figure, table, tr, section.kernel { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  details::details-content { content-visibility: visible; display: block; }
}
)CSS";
}

}  // namespace kblaster
