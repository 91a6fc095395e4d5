// `kblaster compare --repeat N`: the A/B of one pair of candidates run N times after
// one verification, each on fresh inputs with a fresh sampler, for studies of how
// stable the verdict is.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "eval/compare_step.h"
#include "eval/session.h"

namespace kblaster {

struct CompareSeries {
  std::vector<AbResult> runs;        // in order; fewer than asked when stopped early
  std::map<std::string, int> tally;  // verdict name ("REJECTED" for untrusted runs) -> runs
  std::string stopped;               // why the series stopped early; "" when it did not
  bool slower() const { return tally.contains("SLOWER"); }
  bool rejected() const { return tally.contains("REJECTED"); }
  // "SAME 3, SLOWER 1": the tally in name order.
  std::string summary() const;
};

// Runs compare_once `repeat` times on `harness`, whose candidates 0 (A) and 1 (B)
// are loaded and set up at the timed size, printing one progress line per run. With
// flags.seed set, run i times on inputs from flags.seed + i.
// Stops early when the harness ended in two runs in a row (RepeatGuard). Errors
// are compare_once's.
Result<CompareSeries> compare_series(HarnessClient& harness, const KernelSpec& spec,
                                     const CompareFlags& flags, int repeat, Session& session);

}  // namespace kblaster
