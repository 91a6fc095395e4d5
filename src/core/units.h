// Human-readable quantities for terminal output: "201.3 MB", "34.4 GFLOP", "1.2 s".
#pragma once

#include <cstdint>
#include <string>

namespace kblaster {

std::string format_bytes(std::int64_t bytes);  // decimal SI units, as bandwidths use
std::string format_flops(std::int64_t flops);
std::string format_seconds(double seconds);

}  // namespace kblaster
