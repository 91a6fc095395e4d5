// The charts of the HTML report, each in a <figure> with its caption, made from
// the views: what to draw, in which unit, and what to say when nothing can be.
#pragma once

#include <string>

#include "report/result_view.h"

namespace kblaster {

// One result's figures: base and head time per kernel (relative to base when the
// result holds ratios only), and the speedup per kernel. "" when no kernel was timed.
std::string result_figures(const ResultView& result);

// One kernel's figures: the search's best verified speedup against evaluations and
// against wall time, and the roofline before and after. "" when it has none.
std::string kernel_figures(const KernelView& kernel);

}  // namespace kblaster
