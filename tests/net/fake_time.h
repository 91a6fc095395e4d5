// Time that passes only when HttpClient sleeps, for retry tests that take no real time;
// it records each wait and each log line.
#pragma once

#include <string>
#include <vector>

#include "core/clock.h"
#include "net/client_services.h"

namespace kblaster::testing {

class FakeTime final : public Clock {
 public:
  double now_seconds() override { return now; }

  // Services over this time: the wall clock starts at `unix_origin`, sleeping advances both.
  HttpClientServices services() {
    return {.clock = *this,
            .unix_seconds = [this] { return unix_origin + now; },
            .sleep =
                [this](double seconds) {
                  slept.push_back(seconds);
                  now += seconds;
                },
            .jitter = [this] { return jitter; },
            .log = [this](const std::string& line) { lines.push_back(line); }};
  }

  double now = 0;
  double unix_origin = 1'700'000'000;
  double jitter = 0;
  std::vector<double> slept;
  std::vector<std::string> lines;
};

}  // namespace kblaster::testing
