// The output of `kblaster plan --base … --head …`: the revision range, the files
// that changed, and each kernel hit with why.
#pragma once

#include <ostream>

#include "git/change_plan.h"

namespace kblaster {

// `source` says where the range came from ("--base/--head", "pull_request event (…)").
// Its JSON form is git/change_plan_json.h's.
void print_change_plan(std::ostream& out, const ChangePlan& plan, const std::string& source);

}  // namespace kblaster
