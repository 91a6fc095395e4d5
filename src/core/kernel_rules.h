// Rules that span several fields of one kernel: shapes refer to integer scalars,
// sizes bind every free scalar, outputs exist, tolerances are sane. Parses the
// fields those rules need (flops, sizes, tolerance) into `spec` as it goes.
#pragma once

#include "core/kernel_spec.h"
#include "core/status.h"
#include "core/toml_fields.h"

namespace kblaster {

// `f` reads the kernel's table; spec.args must already be parsed.
Status apply_kernel_rules(const TomlFields& f, KernelSpec& spec);

}  // namespace kblaster
