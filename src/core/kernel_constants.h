// A kernel's named integer constants (`constants = { V = 50257 }`): values that are not launcher
// arguments but size things, as an embedding table's vocabulary does. Shapes, flops, min_bytes,
// requires and init bounds may use them by name.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/status.h"
#include "core/toml_fields.h"

namespace kblaster {

using KernelConstants = std::map<std::string, std::int64_t>;

// The `constants` table of a kernel: identifiers mapped to integers; none when absent. A value
// that is not an integer is a config error at `constants`. (That no constant shares an
// argument's name is a kernel rule: the arguments are parsed after the constants they use.)
Result<KernelConstants> parse_constants(const TomlFields& f);

}  // namespace kblaster
