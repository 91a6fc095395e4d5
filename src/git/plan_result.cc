#include "git/plan_result.h"

#include "core/launch_plan.h"
#include "core/result_envelope.h"
#include "core/spec_json.h"
#include "git/change_plan_json.h"

namespace kblaster {

const char* plan_mode_name(PlanMode mode) {
  return mode == PlanMode::changes ? "changes" : "kernels";
}

Result<nlohmann::json> plan_result(const std::filesystem::path& root, const Config& config,
                                   const std::vector<const KernelSpec*>& selected,
                                   Provenance provenance) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelSpec* spec : selected) {
    auto plan = plan_validated_kernel(*spec);
    if (!plan) return plan.error();
    kernels.push_back(to_json(*spec, *plan));
  }
  stamp_finished(provenance);
  nlohmann::json j = result_envelope("plan", kPlanSchemaVersion, provenance);
  j["mode"] = plan_mode_name(PlanMode::kernels);
  j["repo"] = root.string();
  j["arch"] = config.project.arch;
  j["spec_files"] = config.spec_files;
  j["kernels"] = kernels;
  return j;
}

nlohmann::json plan_result(const ChangePlan& plan, const std::string& source,
                           Provenance provenance) {
  if (!plan.new_branch) provenance.base_sha = plan.range.base.hex;
  provenance.head_sha = plan.range.head.hex;
  stamp_finished(provenance);
  nlohmann::json j = result_envelope("plan", kPlanSchemaVersion, provenance);
  j["mode"] = plan_mode_name(PlanMode::changes);
  j.update(to_json(plan, source));
  return j;
}

}  // namespace kblaster
