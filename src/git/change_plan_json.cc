#include "git/change_plan_json.h"

namespace kblaster {

std::vector<std::string> not_hit(const ChangePlan& plan) {
  std::vector<std::string> out;
  for (const auto& k : plan.head_config.kernels)
    if (!plan.changes.find(k.name)) out.push_back(k.name);
  return out;
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
