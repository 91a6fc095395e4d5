// What the kill test and its victim, kblaster_kb_writer, agree on.
#pragma once

#include <cstdint>

namespace kblaster::kb_test {
inline constexpr std::int64_t kStepsPerTrajectory = 5;  // every trajectory the writer records
}  // namespace kblaster::kb_test
