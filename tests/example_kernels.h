// The example repository (examples/kernels) as tests use it: its configuration, loaded
// once per test binary, and its kernels by name.
#pragma once

#include <string_view>

#include "core/kernel_spec.h"

namespace kblaster::testing {

// The configuration of examples/kernels. A load failure is a test failure (with the
// loader's message), and the configuration is then empty.
const Config& example_config();

// The example kernel called `name`, or nullptr (a test failure) if there is none.
const KernelSpec* example_kernel(std::string_view name);

}  // namespace kblaster::testing
