// A change plan as JSON: what `kblaster plan --base … --head … --json` prints.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "git/change_plan.h"

namespace kblaster {

// The head kernels the change does not hit, in config order.
std::vector<std::string> not_hit(const ChangePlan& plan);

// {"base" (null for a new branch), "head", "source", "changed_paths", "hits" (kernel, why,
// because, include_chains, base_name, base_source), "not_hit", "new_branch",
// "base_config_error"}. `source` says where the range came from.
nlohmann::json to_json(const ChangePlan& plan, const std::string& source);

}  // namespace kblaster
