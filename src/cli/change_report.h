// The output of `kblaster plan --base … --head …`: the revision range, the files
// that changed, and each kernel hit with why.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "git/change_plan.h"

namespace kblaster {

// `source` says where the range came from ("--base/--head", "pull_request event (…)").
void print_change_plan(std::ostream& out, const ChangePlan& plan, const std::string& source);
nlohmann::json to_json(const ChangePlan& plan, const std::string& source);

}  // namespace kblaster
