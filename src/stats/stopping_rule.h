// When to stop timing one candidate: nvbench's stopping rule (noise target after
// a minimum of samples and GPU time, or a wall-clock limit) as a pure object.
#pragma once

#include <cstddef>
#include <vector>

namespace kblaster {

struct StoppingCriteria {
  double max_noise = 0.005;      // relative; see StoppingRule for the definition
  std::size_t min_samples = 10;  // never converge with fewer samples
  double min_gpu_seconds = 0.5;  // nor with less summed sample time
  double max_seconds = 15.0;     // wall-clock limit; stops even if not converged
};

enum class StopReason {
  keep_going,
  converged,   // noise <= max_noise, with at least min_samples and min_gpu_seconds
  time_limit,  // elapsed wall time reached max_seconds before converging
};

// "KEEP_GOING", "CONVERGED" or "TIME_LIMIT".
const char* stop_reason_name(StopReason reason);

struct StopDecision {
  StopReason reason = StopReason::keep_going;
  double noise = 0;  // the current noise (infinite below 2 samples)
  std::size_t samples = 0;
  double gpu_seconds = 0;  // sum of the samples
};

// Noise is the relative half-width of the distribution-free 95% confidence
// interval of the median (stats/median_interval.h), not nvbench's relative
// stdev: we report medians, and what must hold is that a rerun's median lands
// within ~max_noise of this one. The stdev of the samples does not shrink with
// more samples and a few slow outliers inflate it, so it can fail to converge
// on a perfectly stable median; the median's interval shrinks as 1/sqrt(n) and
// ignores outliers. Not thread-safe.
class StoppingRule {
 public:
  explicit StoppingRule(StoppingCriteria criteria = {});

  // Records one timing sample (seconds of GPU time). The noise is refreshed (an
  // O(n) merge) at every sample up to 128, then whenever the count has grown by
  // 1/128 since the last refresh: amortized O(1) per sample, under 1% stale.
  void add(double sample_seconds);

  // The decision after the samples so far, `elapsed_wall_seconds` into the run.
  StopDecision decide(double elapsed_wall_seconds) const;

 private:
  void refresh_noise();

  StoppingCriteria criteria_;
  std::vector<double> sorted_;  // ascending up to sorted_count_, then unsorted
  std::size_t sorted_count_ = 0;
  double gpu_seconds_ = 0;
  double noise_;
};

}  // namespace kblaster
