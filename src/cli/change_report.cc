#include "cli/change_report.h"

#include <algorithm>
#include <iomanip>

namespace kblaster {
namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

// Head kernels the change does not hit, in config order.
std::vector<std::string> not_hit(const ChangePlan& plan) {
  std::vector<std::string> out;
  for (const auto& k : plan.head_config.kernels)
    if (!plan.changes.find(k.name)) out.push_back(k.name);
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
  for (const auto& hit : plan.changes.hits) {
    out << "  " << std::left << std::setw(20) << hit.kernel << std::setw(18) << why_name(hit.why)
        << std::right << join(hit.because);
    if (hit.base_name && *hit.base_name != hit.kernel) out << "  (was " << *hit.base_name << ")";
    out << "\n";
    for (const auto& [header, chain] : hit.include_chains) {
      if (chain.size() <= 2) continue;  // a direct include needs no explaining
      out << "  " << std::setw(38) << "" << header << " through ";
      for (std::size_t i = 0; i + 1 < chain.size(); ++i) out << (i ? " -> " : "") << chain[i];
      out << "\n";
    }
  }
  const auto quiet = not_hit(plan);
  if (!quiet.empty()) out << "  not hit: " << join(quiet) << "\n";
}

nlohmann::json to_json(const ChangePlan& plan, const std::string& source) {
  nlohmann::json paths = nlohmann::json::array();
  for (const auto& p : plan.paths)
    paths.push_back({{"kind", path_change_kind_name(p.kind)},
                     {"old_path", p.old_path},
                     {"new_path", p.new_path}});
  nlohmann::json hits = nlohmann::json::array();
  for (const auto& h : plan.changes.hits) {
    nlohmann::json j = {{"kernel", h.kernel},
                        {"why", why_name(h.why)},
                        {"because", h.because},
                        {"include_chains", h.include_chains}};
    j["base_name"] = h.base_name ? nlohmann::json(*h.base_name) : nlohmann::json(nullptr);
    j["base_source"] = h.base_source ? nlohmann::json(*h.base_source) : nlohmann::json(nullptr);
    hits.push_back(std::move(j));
  }
  nlohmann::json j = {
      {"base", plan.new_branch ? nlohmann::json() : nlohmann::json(plan.range.base.hex)},
      {"head", plan.range.head.hex},
      {"source", source},
      {"changed_paths", paths},
      {"hits", hits},
      {"not_hit", not_hit(plan)},
      {"new_branch", plan.new_branch}};
  j["base_config_error"] = plan.changes.base_config_error
                               ? nlohmann::json(plan.changes.base_config_error->describe())
                               : nlohmann::json(nullptr);
  return j;
}

}  // namespace kblaster
