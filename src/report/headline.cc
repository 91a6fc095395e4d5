#include "report/headline.h"

#include <algorithm>
#include <vector>

namespace kblaster {

std::string headline(std::span<const Finding> findings) {
  std::string out;
  for (Finding f : kAllFindings) {
    const auto n = std::count(findings.begin(), findings.end(), f);
    if (n == 0) continue;
    out += out.empty() ? std::to_string(n) + (n == 1 ? " kernel " : " kernels ")
                       : ", " + std::to_string(n) + " ";
    out += finding_phrase(f);
  }
  return out.empty() ? "no kernels" : out;
}

std::string headline(const ResultView& result) {
  std::vector<Finding> findings;
  for (const auto& k : result.kernels) findings.push_back(k.finding);
  return headline(findings);
}

std::string report_headline(std::span<const ResultView> results) {
  if (results.empty()) return "no results";
  // The findings of each kind of result, kinds in the order they first appear.
  std::vector<std::pair<ResultKind, std::vector<Finding>>> kinds;
  for (const auto& r : results) {
    auto it =
        std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == r.kind; });
    if (it == kinds.end()) it = kinds.insert(kinds.end(), {r.kind, {}});
    for (const auto& k : r.kernels) it->second.push_back(k.finding);
  }
  if (kinds.size() == 1) return headline(kinds.front().second);
  std::string out;
  for (const auto& [kind, findings] : kinds)
    out +=
        (out.empty() ? "" : "; ") + std::string(result_kind_name(kind)) + ": " + headline(findings);
  return out;
}

}  // namespace kblaster
