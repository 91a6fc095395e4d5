// When a --repeat loop (compare, bench) should stop early: a candidate that
// brings the harness down on every run would otherwise cost a full launch
// timeout per run, for as many runs as were asked.
#pragma once

#include <string>

#include "gpu/harness_client.h"

namespace kblaster {

class RepeatGuard {
 public:
  // Stops after the harness ended in `limit` runs in a row.
  explicit RepeatGuard(int limit = 2) : limit_(limit) {}
  // Call after each run; true when the loop should stop (the harness that run
  // used is gone, as it was after the `limit` - 1 runs before it).
  bool stop_after_run(const HarnessClient& harness) {
    ended_in_a_row_ = harness.holds_load() ? 0 : ended_in_a_row_ + 1;
    return ended_in_a_row_ >= limit_;
  }
  // Why it stopped, for the progress line.
  std::string why() const {
    return "the harness ended in " + std::to_string(ended_in_a_row_) +
           " runs in a row, so the runs left would too";
  }

 private:
  int limit_;
  int ended_in_a_row_ = 0;
};

}  // namespace kblaster
