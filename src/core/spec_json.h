// JSON forms of kernel specs and launch plans, as `kblaster plan --json` prints
// them and as they cross process boundaries. Field names are stable.
#pragma once

#include <nlohmann/json.hpp>

#include "core/kernel_spec.h"
#include "core/launch_plan.h"

namespace kblaster {

nlohmann::json to_json(const ArgSpec& arg);
nlohmann::json to_json(const KernelSpec& spec);
nlohmann::json to_json(const SizePlan& size);
// The spec's JSON with "sizes": each size of `plan` (plan_kernel of `spec`).
nlohmann::json to_json(const KernelSpec& spec, const KernelPlan& plan);

}  // namespace kblaster
