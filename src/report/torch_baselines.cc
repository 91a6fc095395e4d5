#include "report/torch_baselines.h"

#include <algorithm>
#include <cstdio>

#include "core/units.h"

namespace kblaster {

std::vector<FastP> fast_p(std::span<const ResultView> results, double p) {
  std::vector<FastP> out;
  for (const auto& r : results)
    for (const auto& k : r.kernels)
      for (const auto& b : k.baselines) {
        auto it =
            std::find_if(out.begin(), out.end(), [&](const FastP& f) { return f.mode == b.mode; });
        if (it == out.end()) it = out.insert(out.end(), FastP{b.mode, p, 0, 0});
        ++it->total;
        const bool timed = k.finding == Finding::timed && b.failed.empty() && b.speedup;
        if (timed && *b.speedup > p) ++it->fast;
      }
  return out;
}

std::string fast_p_text(const FastP& f) {
  char p[16], share[16];
  std::snprintf(p, sizeof p, "%g", f.p);
  std::snprintf(share, sizeof share, "%.0f%%",
                f.total ? 100.0 * static_cast<double>(f.fast) / static_cast<double>(f.total) : 0.0);
  return "fast_" + std::string(p) + " against torch " + f.mode + ": " + std::to_string(f.fast) +
         " of " + std::to_string(f.total) + " kernels (" + share + ")";
}

bool has_baselines(const ResultView& r) {
  return std::any_of(r.kernels.begin(), r.kernels.end(),
                     [](const KernelView& k) { return !k.baselines.empty(); });
}

const std::vector<std::string>& baseline_headings() {
  static const std::vector<std::string> headings = {"kernel",  "kernel time",   "torch eager",
                                                    "speedup", "torch.compile", "speedup"};
  return headings;
}

std::vector<std::string> baseline_cells(const KernelView& k) {
  static const std::string modes[] = {"eager", "compile"};
  std::vector<std::string> cells = {k.head_time ? format_seconds(k.head_time->value) : "-"};
  for (const auto& mode : modes) {
    auto it = std::find_if(k.baselines.begin(), k.baselines.end(),
                           [&](const BaselineView& b) { return b.mode == mode; });
    if (it == k.baselines.end() || !it->failed.empty() || !it->median_s) {
      cells.push_back(it == k.baselines.end() ? "-" : "not timed");
      cells.push_back("-");
      continue;
    }
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2fx", *it->speedup);
    cells.push_back(format_seconds(*it->median_s));
    cells.push_back(ratio);
  }
  return cells;
}

}  // namespace kblaster
