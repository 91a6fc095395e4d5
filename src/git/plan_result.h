// `kblaster plan`'s result (kind "plan", reports/schema/plan.schema.json): the kernels
// of a repository with their resolved specs, or the kernels a revision range hits.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/kernel_spec.h"
#include "core/provenance.h"
#include "core/status.h"
#include "git/change_plan.h"

namespace kblaster {

// What a plan lists: every (selected) kernel and its sizes, or what a range hits.
enum class PlanMode { kernels, changes };

// "kernels" or "changes".
const char* plan_mode_name(PlanMode mode);

// The version of the plan result's JSON; reports/schema/plan.schema.json.
inline constexpr int kPlanSchemaVersion = 1;

// {"kind": "plan", "schema_version", "provenance", "mode": "kernels", "repo", "arch",
// "spec_files", "kernels": [each spec with its "sizes"]} for `selected` of `config`, the
// repository at `root`. Error::internal for a kernel that passed validation but does not plan.
Result<nlohmann::json> plan_result(const std::filesystem::path& root, const Config& config,
                                   const std::vector<const KernelSpec*>& selected,
                                   Provenance provenance);

// {"kind": "plan", "schema_version", "provenance" (with both SHAs), "mode": "changes",
// and to_json(plan, source)'s fields}: the kernels the range hits and why.
nlohmann::json plan_result(const ChangePlan& plan, const std::string& source,
                           Provenance provenance);

}  // namespace kblaster
