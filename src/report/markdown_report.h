// The Markdown report: for a PR comment and $GITHUB_STEP_SUMMARY.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "report/result_view.h"

namespace kblaster {

// The most characters a Markdown report may have: GitHub's limit on a comment's
// body and on a job summary. Counted as UTF-8 bytes, which are never fewer.
inline constexpr std::size_t kMaxMarkdownChars = 65536;

// The report's headline, then per result a table of its kernels (base, head, the
// ratio with its CI, verdict, reason) and <details> on verification, profile deltas,
// the search and provenance. Longer than `max_chars`, it cuts the details first
// (provenance, search, profile deltas, verification, the last result's first), then
// kernel rows from the end, and ends with a line that says what it cut.
std::string render_markdown(std::span<const ResultView> results,
                            std::size_t max_chars = kMaxMarkdownChars);

}  // namespace kblaster
