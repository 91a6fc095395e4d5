// The `init` field of a buffer argument: which distribution fills it.
#pragma once

#include <string_view>

#include "core/kernel_spec.h"
#include "core/status.h"

namespace kblaster {

// Parses "normal", "normal(0,2)", "uniform(-1,1)", "randint(0,10)" in one pass
// over the text. The Error message says what is wrong, without a location.
Result<InitDist> parse_init(std::string_view text);

}  // namespace kblaster
