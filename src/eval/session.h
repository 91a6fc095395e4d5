// What every step of the eval layer is handed: where results and progress go,
// and the side-effecting services (the GPU probe, the clock, the harness) it may
// use, passed in so tests can substitute them.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

namespace kblaster {

class Clock;
class DeviceProbe;
class HarnessRunner;

// The outside world a command or step touches, passed in so tests can substitute it.
struct Session {
  std::ostream& out;       // results: tables, or JSON with --json
  std::ostream& progress;  // per-kernel progress and reasons; never JSON
  DeviceProbe& device;     // which GPU, if any, runs the candidates
  Clock& clock;            // wall time, for time limits
  // Starts a connection to kblaster-harness (the process itself starts on the
  // first request); Error::environment when the harness program is missing.
  std::function<Result<std::unique_ptr<HarnessRunner>>()> harness;
  // The command line kblaster was started with, for a result's provenance.
  std::vector<std::string> command_line = {};
  std::string kblaster_version = {};  // "0.1.0", for a result's provenance
};

}  // namespace kblaster
