// CLI11 validators for flags that several commands share, so a bad value fails
// at parse time (exit 2, naming the flag) instead of deep inside a build.
#pragma once

#include <CLI/CLI.hpp>

namespace kblaster {

// Accepts GPU architecture names like sm_90 and sm_90a (core/arch_name.h).
CLI::Validator arch_validator();

// Accepts numbers greater than 0: "-1 is not a positive number".
CLI::Validator positive_validator();

}  // namespace kblaster
