// Predicted gain of every catalogue technique in a performance state on a GPU arch, for the
// search's candidate choice (DESIGN.md, "Knowledge Base and MAIC-RL"; kb/README.md).
//
// Back-off, per technique; a measured level qualifies with >= min_evidence attempts
// (failures are evidence too: a technique that always fails to compile is not sent back
// to its prior):
//   exact         stats of (state, technique, arch);
//   similar_state stats pooled over the states of the same class (key part before the dot,
//                 this state included) on this arch;
//   other_arch    stats of this state pooled over every arch;
//   prior         the state's catalogue prior; measurements below min_evidence are ignored;
//   none          no prior and too little evidence: gain 0, uncertainty unit_sd.
// Formulas, with n measured steps, a attempts, mean m and sample variance s^2 of their log
// speedups (0 when n < 2), prior gain p and confidence c (p = c = 0 without a prior):
//   k   = prior_weight * c                 prior as pseudo-observations (all measured);
//   mu  = (n*m + k*p) / (n + k)            shrunk mean log speedup of a measured step (0 if n+k=0);
//   rho = (n + k) / (a + k)                chance a step is measured (1 if a+k=0);
//   expected_log_speedup = rho * mu        a compile or verify failure scores 0 (the parent is
//                                          kept), so failures pull the gain toward 0;
//   s_eff^2 = ((n-1)*s^2 + unit_sd^2) / n  (unit_sd^2 when n = 0): one pseudo-observation of
//                                          unit_sd^2 so identical rewards never claim zero spread;
//   uncertainty = s_eff / sqrt(max(n + k, 1)).
// The prior level is the same with n = a = 0; none is additionally k = 0.
// Borrowed levels (similar_state, other_arch) pool other states of the class, or other archs,
// with this state's own few steps; the pool's gain may differ from this state's by about
// borrow_sd. So its measured steps are one estimate, m with variance
// v_m = s_eff^2 / n + borrow_sd^2, and the prior level (b = its gain, v_b = its uncertainty^2:
// p and unit_sd^2 / max(k, 1) with a prior, 0 and unit_sd^2 without) another, combined by
// precision; failures count as at the exact level:
//   mu  = (m/v_m + b/v_b) / (1/v_m + 1/v_b)   (b when n = 0);
//   expected_log_speedup = rho * mu,  uncertainty = sqrt(1 / (1/v_m + 1/v_b))  (sqrt(v_b) if n =
//   0).
// Since v_m >= borrow_sd^2 = unit_sd^2 by default, steps made elsewhere are worth at most about
// one step made here: forty no-gain steps on other kernels' states leave an untried technique at
// 0 +- 7 %, not the 0 +- 1.7 % the exact formula would claim. Unlike the exact level, the prior
// is weighed against unit_sd^2 rather than the steps' own spread, so borrow_sd = 0 is not the
// exact formula.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "kb/catalogue.h"
#include "kb/store.h"

namespace kblaster {

struct Prediction {
  enum class Source { exact, similar_state, other_arch, prior, none };
  std::string technique;
  double expected_log_speedup = 0.0;
  double uncertainty = 0.0;  // the gain's standard deviation, by the level's formula above
  Source source = Source::none;
  std::int64_t evidence = 0;  // measured steps behind it (0 for prior and none)
  std::int64_t attempts = 0;  // all attempts behind it, failures included
  // Attempts in this very state on this arch, whatever level the gain came from: 0 means
  // the technique is untried here, even if other states' evidence stands behind its gain.
  std::int64_t attempts_here = 0;
};

const char* prediction_source_name(Prediction::Source source);

struct PredictionOptions {
  std::int64_t min_evidence = 3;  // attempts a measured level needs to be used
  double prior_weight = 10.0;     // pseudo-observations of a prior with confidence 1
  // Assumed spread of one step's log speedup. Rewards are the gain a step kept (0 for a
  // slower or equal child), and the H200 runs of 2026-11-30 measured per-technique spreads of
  // 0.03 to 0.13; 0.3 dated from raw log speedups, whose slow children reached -1.4.
  double unit_sd = 0.1;
  // How far a technique's gain in this state may be from the pooled gain of its class or of
  // other archs. The H200 runs of 2026-11-30 saw gaps of 0.18 (launch geometry: none in
  // memory.dram_saturated, +20% in memory.l1_bound) and 0.21 (fast math: none in
  // launch.too_small, +23% in launch.grid_undersized). 0.1, equal to unit_sd, is a bound on
  // trust rather than an estimate of the gap: borrowed steps count as about one step here.
  double borrow_sd = 0.1;
};

// One Prediction per catalogue technique, best expected gain first (ties by technique id).
// An unknown state is no error: it has no priors, so unmeasured techniques come back `none`.
// Reads the stats table with one range query on its primary key; errors are SQLite's.
Result<std::vector<Prediction>> predict(const Store& store, const Catalogue& catalogue,
                                        std::string_view state, std::string_view arch,
                                        PredictionOptions options = {});

}  // namespace kblaster
