#include "report/markdown_blocks.h"

#include "core/markup_escape.h"
#include "report/comparability.h"
#include "report/headline.h"
#include "report/kernel_text.h"
#include "report/number_text.h"
#include "report/torch_baselines.h"

namespace kblaster {
namespace {

std::string_view tone_mark(Tone tone) {
  switch (tone) {
    case Tone::good:
      return "\U0001F7E2";  // green circle
    case Tone::bad:
      return "\U0001F534";  // red circle
    case Tone::neutral:
      return "\u26AA";  // white circle
  }
  return "";
}

std::string details(std::string_view summary, const std::string& body) {
  return "<details><summary>" + std::string(summary) + "</summary>\n\n" + body + "\n</details>\n\n";
}

std::string row(const KernelView& k) {
  const KernelCells c = kernel_cells(k);
  return "| " + markdown_escape(k.name) + " | " + markdown_escape(c.base) + " | " +
         markdown_escape(c.head) + " | " + c.ratio + " | " +
         std::string(tone_mark(finding_tone(k.finding))) + " " + c.verdict + " | " +
         markdown_escape(k.reason) + " |\n";
}

}  // namespace

std::string profile_delta_markdown(const KernelView& k) {
  const ProfileChange& p = *k.profile;
  std::string out = "**" + markdown_escape(k.name) + "**: state " +
                    markdown_escape(p.state_before) + " \u2192 " + markdown_escape(p.state_after) +
                    "\n\n| metric | before | after | change |\n|---|---:|---:|---:|\n";
  for (const auto& r : p.rows)
    out += "| " + markdown_escape(r.metric) + " | " +
           markdown_escape(format_metric(r.before, r.unit)) + " | " +
           markdown_escape(format_metric(r.after, r.unit)) + " | " +
           format_change(r.before, r.after) + " |\n";
  return out + "\n";
}

namespace {

// The kernels against their PyTorch references, and fast_1 over this result's kernels.
std::string baselines_markdown(const ResultView& r) {
  std::string out = "**Against PyTorch** (" + std::string(kBaselineReading) + ")\n\n|";
  for (const auto& h : baseline_headings()) out += " " + h + " |";
  out += "\n|---|---:|---:|---:|---:|---:|\n";
  for (const auto& k : r.kernels) {
    if (k.baselines.empty()) continue;
    out += "| " + markdown_escape(k.name);
    for (const auto& c : baseline_cells(k)) out += " | " + markdown_escape(c);
    out += " |\n";
  }
  out += "\n";
  for (const auto& f : fast_p(std::span<const ResultView>(&r, 1)))
    out += "- " + fast_p_text(f) + "\n";
  return out + "\n";
}

void add_details(std::vector<MarkdownBlock>& out, std::size_t index, const ResultView& r) {
  std::string verification, profiles, search, provenance;
  for (const auto& k : r.kernels) {
    for (const auto& line : k.verification)
      verification += "- **" + markdown_escape(k.name) + "**: " + markdown_escape(line) + "\n";
    if (k.profile) profiles += profile_delta_markdown(k);
    if (const std::string s = search_summary(k); !s.empty())
      search += "- **" + markdown_escape(k.name) + "**: " + markdown_escape(s) + "\n";
  }
  for (const auto& [label, value] : r.facts)
    provenance += "- " + label + ": " + markdown_escape(value) + "\n";
  const std::pair<MarkdownPart, const std::string*> parts[] = {
      {MarkdownPart::verification, &verification},
      {MarkdownPart::profile, &profiles},
      {MarkdownPart::search, &search},
      {MarkdownPart::provenance, &provenance}};
  for (const auto& [part, body] : parts)
    if (!body->empty()) out.push_back({part, index, details(markdown_part_name(part), *body)});
}

}  // namespace

std::string_view markdown_part_name(MarkdownPart part) {
  switch (part) {
    case MarkdownPart::heading:
      return "heading";
    case MarkdownPart::row:
      return "kernel rows";
    case MarkdownPart::verification:
      return "Verification";
    case MarkdownPart::profile:
      return "Profile deltas";
    case MarkdownPart::search:
      return "Search";
    case MarkdownPart::provenance:
      return "Provenance";
  }
  return "";
}

std::vector<MarkdownBlock> markdown_blocks(std::span<const ResultView> results) {
  std::vector<MarkdownBlock> out;
  std::string top = "## kblaster: " + report_headline(results) + "\n\n";
  for (const auto& note : comparability_notes(results))
    top += "> \u26A0\uFE0F " + markdown_escape(note) + "\n\n";
  if (results.size() > 1)
    for (const auto& f : fast_p(results)) top += "- over every result: " + fast_p_text(f) + "\n";
  out.push_back({MarkdownPart::heading, 0, std::move(top)});
  for (std::size_t i = 0; i < results.size(); ++i) {
    const ResultView& r = results[i];
    std::string head = "### " + markdown_escape(r.title) + "\n\n" + headline(r) + ".\n\n";
    for (const auto& note : r.notes) head += "> " + markdown_escape(note) + "\n\n";
    if (!r.kernels.empty())
      head +=
          "| kernel | base | head | head/base time (CI) | verdict | reason |\n"
          "|---|---|---|---:|---|---|\n";
    out.push_back({MarkdownPart::heading, i, std::move(head)});
    for (const auto& k : r.kernels) out.push_back({MarkdownPart::row, i, row(k)});
    if (!r.kernels.empty()) out.push_back({MarkdownPart::heading, i, "\n"});
    if (has_baselines(r)) out.push_back({MarkdownPart::row, i, baselines_markdown(r)});
    add_details(out, i, r);
  }
  return out;
}

}  // namespace kblaster
