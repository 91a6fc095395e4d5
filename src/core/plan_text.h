// The text form of `kblaster plan`: one block per kernel with its resolved spec
// and a row per size.
#pragma once

#include <ostream>

#include "core/kernel_spec.h"
#include "core/launch_plan.h"

namespace kblaster {

void print_kernel_plan(std::ostream& out, const KernelSpec& spec, const KernelPlan& plan);

}  // namespace kblaster
