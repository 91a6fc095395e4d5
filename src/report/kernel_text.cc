#include "report/kernel_text.h"

#include "report/number_text.h"

namespace kblaster {
namespace {

std::string time_text(const std::optional<Estimate>& t, const std::string& otherwise) {
  if (!t) return otherwise;
  std::string out = format_duration(t->value);
  if (t->low && t->high)
    out += " (" + format_duration(*t->low) + "\u2013" + format_duration(*t->high) + ")";
  return out;
}

}  // namespace

KernelCells kernel_cells(const KernelView& k) {
  return {.base = time_text(k.base_time, k.base),
          .head = time_text(k.head_time, k.head),
          .ratio = k.ratio ? format_ratio(*k.ratio) : "\u2013",
          .verdict = std::string(finding_name(k.finding))};
}

std::string search_summary(const KernelView& k) {
  if (k.search.empty()) return "";
  std::string path;
  for (const auto& t : k.path) path += (path.empty() ? "" : " \u2192 ") + t;
  const SearchPoint* reached = &k.search.front();
  for (const auto& p : k.search)
    if (p.best_speedup > reached->best_speedup) reached = &p;
  return (path.empty() ? "no technique kept" : path) + "; best " +
         format_ratio(reached->best_speedup) + " after evaluation " +
         std::to_string(reached->evaluation) + " of " + std::to_string(k.search.size());
}

std::optional<TimePair> time_pair(const KernelView& k) {
  if (k.base_time && k.head_time) return TimePair{.base = *k.base_time, .head = *k.head_time};
  if (k.ratio) return TimePair{.base = exact(1.0), .head = *k.ratio, .relative = true};
  return std::nullopt;
}

}  // namespace kblaster
