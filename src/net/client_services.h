// The side effects of HttpClient's retry loop (time, sleep, jitter, the call log), passed in
// so tests run in no real time and read what was logged.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/clock.h"

namespace kblaster {

struct HttpClientServices {
  Clock& clock;                                      // monotonic: the deadline, attempt times
  std::function<double()> unix_seconds;              // wall clock, for x-ratelimit-reset
  std::function<void(double seconds)> sleep;         // waits between attempts
  std::function<double()> jitter;                    // a uniform draw in [0, 1)
  std::function<void(const std::string& line)> log;  // one redacted line per attempt; may be empty
};

// The real services: `clock`, the system clock, std::this_thread::sleep_for, and jitter
// from a std::mt19937_64 seeded with `seed` (jitter needs no reproducibility, but the one
// seed source stays the caller's).
HttpClientServices real_client_services(Clock& clock, std::uint64_t seed,
                                        std::function<void(const std::string& line)> log);

}  // namespace kblaster
