#include "report/html_report.h"

#include "core/markup_escape.h"
#include "report/comparability.h"
#include "report/headline.h"
#include "report/html_figures.h"
#include "report/html_style.h"
#include "report/kernel_text.h"
#include "report/number_text.h"
#include "report/torch_baselines.h"

namespace kblaster {
namespace {

std::string cell(const std::string& text, std::string_view cls = {}) {
  return (cls.empty() ? "<td>" : "<td class=\"" + std::string(cls) + "\">") + html_escape(text) +
         "</td>";
}

std::string baselines_table(const ResultView& r) {
  std::string out = "<h3>Against PyTorch</h3>\n<p>" + html_escape(kBaselineReading) +
                    ".</p>\n<table class=\"kernels\"><thead><tr>";
  for (const auto& h : baseline_headings()) out += "<th>" + html_escape(h) + "</th>";
  out += "</tr></thead><tbody>\n";
  for (const auto& k : r.kernels) {
    if (k.baselines.empty()) continue;
    out += "<tr>" + cell(k.name, "name");
    for (const auto& c : baseline_cells(k)) out += cell(c, "num");
    out += "</tr>\n";
  }
  out += "</tbody></table>\n<ul>\n";
  for (const auto& f : fast_p(std::span<const ResultView>(&r, 1)))
    out += "<li>" + html_escape(fast_p_text(f)) + "</li>\n";
  return out + "</ul>\n";
}

std::string kernel_table(const ResultView& r) {
  std::string out =
      "<table class=\"kernels\"><thead><tr><th>kernel</th><th>base</th><th>head</th>"
      "<th>head/base time (CI)</th><th>verdict</th><th>reason</th></tr></thead><tbody>\n";
  for (const auto& k : r.kernels) {
    const KernelCells c = kernel_cells(k);
    out += "<tr>" + cell(k.name, "name") + cell(c.base) + cell(c.head) + cell(c.ratio, "num") +
           "<td><span class=\"verdict " + std::string(tone_name(finding_tone(k.finding))) + "\">" +
           c.verdict + "</span></td>" + cell(k.reason, "reason") + "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string profile_table(const ProfileChange& p) {
  std::string out = "<p>State " + html_escape(p.state_before) + " \u2192 " +
                    html_escape(p.state_after) +
                    "</p>\n<table class=\"profile\"><thead><tr><th>metric</th><th>before</th>"
                    "<th>after</th><th>change</th></tr></thead><tbody>\n";
  for (const auto& m : p.rows)
    out += "<tr>" + cell(m.metric) + cell(format_metric(m.before, m.unit), "num") +
           cell(format_metric(m.after, m.unit), "num") +
           cell(format_change(m.before, m.after), "num") + "</tr>\n";
  return out + "</tbody></table>\n";
}

std::string kernel_section(const KernelView& k) {
  const std::string summary = search_summary(k), figures = kernel_figures(k);
  if (summary.empty() && figures.empty() && !k.profile) return "";
  std::string out = "<section class=\"kernel\"><h3>" + html_escape(k.name) + "</h3>\n";
  if (!summary.empty()) out += "<p>Search: " + html_escape(summary) + "</p>\n";
  out += figures;
  if (k.profile) out += "<h4>Profile delta</h4>\n" + profile_table(*k.profile);
  return out + "</section>\n";
}

std::string result_section(const ResultView& r) {
  std::string out = "<section class=\"result\"><h2>" + html_escape(r.title) +
                    "</h2>\n<p class=\"headline\">" + html_escape(headline(r)) + "</p>\n";
  for (const auto& note : r.notes) out += "<p class=\"note\">" + html_escape(note) + "</p>\n";
  if (!r.kernels.empty()) out += kernel_table(r);
  if (has_baselines(r)) out += baselines_table(r);
  out += result_figures(r);
  for (const auto& k : r.kernels) out += kernel_section(k);
  std::string verification;
  for (const auto& k : r.kernels)
    for (const auto& line : k.verification)
      verification += "<li><b>" + html_escape(k.name) + "</b>: " + html_escape(line) + "</li>\n";
  if (!verification.empty())
    out +=
        "<details open><summary>Verification</summary><ul>\n" + verification + "</ul></details>\n";
  out += "<details><summary>Provenance</summary><dl>\n";
  for (const auto& [label, value] : r.facts)
    out += "<dt>" + html_escape(label) + "</dt><dd>" + html_escape(value) + "</dd>\n";
  return out + "<dt>read from</dt><dd>" + html_escape(r.origin) +
         "</dd>\n</dl></details>\n</section>\n";
}

}  // namespace

std::string render_html(std::span<const ResultView> results) {
  const std::string title = "kblaster: " + report_headline(results);
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"color-scheme\" content=\"light dark\">\n<title>" +
      html_escape(title) + "</title>\n<style>" + std::string(report_css()) +
      "</style></head>\n<body><main>\n<header><h1>kblaster report</h1><p class=\"headline\">" +
      html_escape(report_headline(results)) + "</p></header>\n";
  for (const auto& note : comparability_notes(results))
    out += "<p class=\"note warning\">" + html_escape(note) + "</p>\n";
  if (results.size() > 1)
    for (const auto& f : fast_p(results))
      out += "<p class=\"headline\">Over every result: " + html_escape(fast_p_text(f)) + "</p>\n";
  for (const auto& r : results) out += result_section(r);
  return out +
         "<footer>Rendered by kblaster report from saved results; nothing was measured "
         "again.</footer>\n</main></body></html>\n";
}

}  // namespace kblaster
