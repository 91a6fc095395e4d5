// How a log speedup reads in progress lines, lessons and reports.
#pragma once

#include <string>

namespace kblaster {

// The gain as a signed percent with one decimal: "+10.5%", "-3.0%"; a value
// that rounds to zero reads "+0.0%", never "-0.0%".
std::string percent_gain(double log_speedup);

// The speedup as a factor with three decimals: "1.105x".
std::string speedup_times(double log_speedup);

}  // namespace kblaster
