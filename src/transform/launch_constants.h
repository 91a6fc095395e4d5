// Integer constants that set the block size of a launch, as tunables: the
// search reads their values and rewrites them in place.
// Limits: only definitions whose initialiser is one integer literal count
// (`constexpr int kThreads = kWarps * 32;` yields kWarps, not kThreads); a
// #define may also be overridden with -D, which this does not see. Literals
// count only in a block dim3 made of literals alone and written in the launching
// function (`dim3 block(16, 16)`, `dim3(128, 1)`), each value >= 8 once per
// function; `<<<g, 256>>>`, `dim3(16, ROWS)` and a file-scope dim3 offer none.
// Rewriting a literal changes every integer literal of that value in the
// launching function's body (grid math, but also e.g. `float tile[16]`, or the
// initialiser of a constant of the same value there), and none outside it.
// A constructor's member-initialiser list can make the function's name wrong
// in descriptions; the rewrite is unaffected.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "transform/source_rewrite.h"

namespace kblaster {

struct LaunchConstant {
  // macro / variable: a definition's literal; literal: a number in the block dim3.
  enum class Kind { macro, variable, literal };
  Kind kind = Kind::variable;
  std::string name;
  std::int64_t value = 0;
  std::size_t value_begin = 0;  // byte offsets of the literal in the source
  std::size_t value_end = 0;
  // literal only: the function whose body holds the launch, and the other
  // literals of `value` there (offsets, in order), rewritten together with it.
  std::string function;
  std::vector<std::pair<std::size_t, std::size_t>> also;
};

// The constants that a launch's block size (`<<<grid, kThreads>>>`,
// `dim3 block(BLOCK, kRows)`, `dim3(kThreads)`, `dim3 block(16, 16)`) is
// computed from, each once, in source order. Launches with a non-constant
// block size give none.
std::vector<LaunchConstant> find_launch_constants(std::string_view source);

// `source` with `constant`'s literal (and those in `also`) replaced by `value`,
// any integer suffix kept. Unchanged, saying why, when a literal at the offsets
// is no longer `constant.value`, `value` is not positive, or a launch whose
// block is constant would get more threads per block from it than 1024 or its
// kernel's constant `__launch_bounds__`.
SourceRewrite set_launch_constant(std::string_view source, const LaunchConstant& constant,
                                  std::int64_t value);

}  // namespace kblaster
