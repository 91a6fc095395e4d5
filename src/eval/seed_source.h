// The one place kblaster draws a seed that it was not given. Every random input it
// verifies or times on, and every draw of the search, comes from a seed chosen here or
// passed with --seed; a result records the seeds it used, so a run can be repeated.
#pragma once

#include <cstdint>

namespace kblaster {

// A fresh seed from the system's entropy source: odd, so never 0, which the flags
// read as "draw one".
std::uint64_t draw_seed();

// The seed of a run's index-th timed measurement when the run was given --seed `run_seed`:
// run_seed + 1000 + index, clear of the verification seeds run_seed, run_seed + 1, …;
// 0 (draw one fresh) when `run_seed` is 0, none given.
std::uint64_t timing_seed(std::uint64_t run_seed, int index);

}  // namespace kblaster
