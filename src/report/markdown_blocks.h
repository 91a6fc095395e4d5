// The Markdown report in pieces, each tagged with what it is, so that the report
// can be cut to its character limit details first (markdown_report.h).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "report/result_view.h"

namespace kblaster {

// What a block holds, in the order they are cut when the report is too long:
// heading last (never), rows before it, provenance first.
enum class MarkdownPart { heading, row, verification, profile, search, provenance };

// "heading", "kernel rows", "verification", "profile deltas", "search", "provenance":
// how the note on what was cut names a part.
std::string_view markdown_part_name(MarkdownPart part);

// One piece of the report, cut whole or kept whole.
struct MarkdownBlock {
  MarkdownPart part = MarkdownPart::heading;
  std::size_t result = 0;  // index into the results; the report's own heading is 0
  std::string text;        // ends in a newline
};

// `kernel`'s profile delta, which it must have: its states before and after, then a table
// of each metric before and after with the change; text from the result escaped.
std::string profile_delta_markdown(const KernelView& kernel);

// Every block of the report in document order: the report's headline, then per
// result its heading, headline, notes and table header, a row per kernel, and
// <details> sections for verification, profile deltas, the search and provenance.
// All text from the results is escaped with markdown_escape.
std::vector<MarkdownBlock> markdown_blocks(std::span<const ResultView> results);

}  // namespace kblaster
