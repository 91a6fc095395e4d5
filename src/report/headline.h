// The sentence a report opens with: how many kernels each finding holds.
#pragma once

#include <span>
#include <string>

#include "report/finding.h"
#include "report/result_view.h"

namespace kblaster {

// "2 kernels slower, 1 faster, 7 unchanged": the count of each finding present, in
// headline order (kAllFindings), with the noun after the first count only;
// "no kernels" when `findings` is empty.
std::string headline(std::span<const Finding> findings);

// The headline of `result`'s kernels.
std::string headline(const ResultView& result);

// The headline of a report: the kernels of all its results counted together, or,
// when it holds more than one kind, counted per kind ("check: 2 kernels slower;
// optimize: 1 kernel faster"); "no results" when empty.
std::string report_headline(std::span<const ResultView> results);

}  // namespace kblaster
