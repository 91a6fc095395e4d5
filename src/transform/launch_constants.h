// Integer constants that set the block size of a launch, as tunables: the
// search reads their values and rewrites them in place.
// Limits: only definitions whose initialiser is one integer literal count
// (`constexpr int kThreads = kWarps * 32;` yields kWarps, not kThreads); a
// #define may also be overridden with -D, which this does not see.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "transform/source_rewrite.h"

namespace kblaster {

struct LaunchConstant {
  enum class Kind { macro, variable };
  Kind kind = Kind::variable;
  std::string name;
  std::int64_t value = 0;
  std::size_t value_begin = 0;  // byte offsets of the literal in the source
  std::size_t value_end = 0;
};

// The constants that a launch's block size (`<<<grid, kThreads>>>`,
// `dim3 block(BLOCK, kRows)`, `dim3(kThreads)`) is computed from, each once,
// in source order. Launches with a non-constant block size give none.
std::vector<LaunchConstant> find_launch_constants(std::string_view source);

// `source` with `constant`'s literal replaced by `value` (any integer suffix
// kept). Unchanged, saying why, when the literal at the offsets is no longer
// `constant.value` or `value` is not positive.
SourceRewrite set_launch_constant(std::string_view source, const LaunchConstant& constant,
                                  std::int64_t value);

}  // namespace kblaster
