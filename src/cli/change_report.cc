#include "cli/change_report.h"

#include <algorithm>
#include <iomanip>

#include "git/change_plan_json.h"

namespace kblaster {
namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

}  // namespace

void print_change_plan(std::ostream& out, const ChangePlan& plan, const std::string& source) {
  if (plan.new_branch)
    out << "no base revision (from " << source << "): the push created its branch, so all "
        << plan.changes.hits.size() << " kernel(s) at " << plan.range.head.short_hex()
        << " are new\n";
  else
    out << "changes " << plan.range.base.short_hex() << ".." << plan.range.head.short_hex()
        << " (from " << source << "): " << plan.paths.size() << " file(s) changed, "
        << plan.changes.hits.size() << " of " << plan.head_config.kernels.size()
        << " kernel(s) hit\n";
  if (plan.changes.base_config_error)
    out << "  the base's config did not load (" << plan.changes.base_config_error->describe()
        << "), so every kernel counts as new\n";
  // Columns as wide as their longest entry, so a long kernel name never runs into its reason.
  int name_w = 20, why_w = 18;
  for (const auto& hit : plan.changes.hits) {
    name_w = std::max(name_w, static_cast<int>(hit.kernel.size()) + 2);
    why_w = std::max(why_w, static_cast<int>(std::string_view(why_name(hit.why)).size()) + 2);
  }
  for (const auto& hit : plan.changes.hits) {
    out << "  " << std::left << std::setw(name_w) << hit.kernel << std::setw(why_w)
        << why_name(hit.why) << std::right << join(hit.because);
    if (hit.base_name && *hit.base_name != hit.kernel) out << "  (was " << *hit.base_name << ")";
    out << "\n";
    for (const auto& [header, chain] : hit.include_chains) {
      if (chain.size() <= 2) continue;  // a direct include needs no explaining
      out << "  " << std::setw(name_w + why_w) << "" << header << " through ";
      for (std::size_t i = 0; i + 1 < chain.size(); ++i) out << (i ? " -> " : "") << chain[i];
      out << "\n";
    }
  }
  const auto quiet = not_hit(plan);
  if (!quiet.empty()) out << "  not hit: " << join(quiet) << "\n";
}

}  // namespace kblaster
