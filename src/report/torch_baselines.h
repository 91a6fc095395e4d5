// What reports say of `bench --baseline torch`: each kernel against its PyTorch reference, eager
// and under torch.compile, and KernelBench's fast_p over every such kernel of the results.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "report/result_view.h"

namespace kblaster {

// KernelBench's fast_p for one mode: of the kernels benched against a PyTorch reference in that
// mode (`total`), how many verified, were timed, and beat it by more than `p` (speedup > p).
// A kernel that failed verification, or whose baseline could not be timed, counts against it.
struct FastP {
  std::string mode;
  double p = 1.0;
  std::size_t fast = 0, total = 0;
};

// fast_p at `p` for each mode that any kernel of `results` has, in the order first seen.
std::vector<FastP> fast_p(std::span<const ResultView> results, double p = 1.0);

// "fast_1 against torch eager: 3 of 5 kernels (60%)".
std::string fast_p_text(const FastP& f);

// Whether any kernel of `r` has baselines.
bool has_baselines(const ResultView& r);

// The baseline table's column headings, and the sentence that says how to read it: what the
// Markdown and HTML reports both show.
const std::vector<std::string>& baseline_headings();
inline constexpr const char* kBaselineReading =
    "speedup: torch's median over the kernel's, both timed cold by kblaster; above 1 the kernel "
    "is faster";

// The cells of a kernel's baseline row after its name: kernel time, then per mode (eager,
// compile) its median and speedup ("41.2 us", "1.52x"), or "not timed" and "-".
std::vector<std::string> baseline_cells(const KernelView& k);

}  // namespace kblaster
