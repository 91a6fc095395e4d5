// The `init` field of a buffer argument: which distribution fills it.
#pragma once

#include <string_view>

#include "core/kernel_spec.h"
#include "core/status.h"

namespace kblaster {

// Parses "normal", "normal(0,2)", "uniform(-1,1)", "randint(0,10)", "generator(f)" and
// "state(conv.weight)" in one pass over the text; a bound may be the name of one of `constants`
// ("randint(0,V)"). The Error message says what is wrong, without a location.
Result<InitDist> parse_init(std::string_view text,
                            const std::map<std::string, std::int64_t>& constants = {});

}  // namespace kblaster
