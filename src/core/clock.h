// Wall-clock time behind an interface, so loops with time limits can be tested.
#pragma once

#include <chrono>
#include <cstdint>

namespace kblaster {

class Clock {
 public:
  virtual ~Clock() = default;
  // Seconds since an arbitrary, fixed origin; never decreases.
  virtual double now_seconds() = 0;
};

// std::chrono::steady_clock.
class SteadyClock final : public Clock {
 public:
  double now_seconds() override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

// Unix seconds now, from the system clock: for records that carry a date (the KB's), not for
// measuring time.
inline std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace kblaster
