// The HTML report: one self-contained page (no external assets, no JavaScript),
// with inline SVG charts, for light and dark themes and for print.
#pragma once

#include <span>
#include <string>

#include "report/result_view.h"

namespace kblaster {

// The page: the headline, then per result its headline, notes, the kernel table,
// the time and speedup charts, per kernel the search and roofline charts and the
// profile delta table, verification, and provenance. Every string from a result is
// escaped with html_escape.
std::string render_html(std::span<const ResultView> results);

}  // namespace kblaster
