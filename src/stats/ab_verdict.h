// The A/B verdict: is head (B) faster than, slower than or the same as base (A)?
// Needs both statistical significance and a minimum effect size (DESIGN.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace kblaster {

struct VerdictCriteria {
  // Smallest relative change of the median that counts: 2 % for the search's children;
  // compare and check pass kRegressionMinEffect (core/kernel_spec.h).
  double min_effect = 0.02;
  double alpha = 0.01;  // significance level; the CI has level 1 - alpha
  std::size_t bootstrap_resamples = 2000;
  std::uint64_t seed = 1;        // bootstrap seed: same inputs → same verdict
  std::size_t min_samples = 10;  // per side; fewer is always AMBIGUOUS
};

// B relative to A.
enum class Verdict { faster, slower, same, ambiguous };

// "FASTER", "SLOWER", "SAME" or "AMBIGUOUS".
const char* verdict_name(Verdict verdict);

struct Comparison {
  Verdict verdict = Verdict::ambiguous;
  double ratio = 0;                // median(B) / median(A); > 1 means B is slower
  double ci_low = 0, ci_high = 0;  // bootstrap CI of the ratio, level 1 - alpha
  double mann_whitney_p = 1;       // two-sided
  std::size_t n_a = 0, n_b = 0;
  std::string reason;  // one line citing the numbers behind the verdict
};

// Compares timing samples (seconds) of A and B. With e = min_effect, r = ratio,
// [lo, hi] the CI and p the Mann-Whitney p-value, the first rule that holds wins:
//   AMBIGUOUS  n_a or n_b < min_samples, or median(A) is not positive;
//   SLOWER     p < alpha and lo > 1 and r >= 1 + e   (significant and large enough);
//   FASTER     p < alpha and hi < 1 and r <= 1 - e;
//   SAME       1 - e <= lo and hi <= 1 + e   (equivalence: any change is below e,
//              even if it is significant);
//   AMBIGUOUS  otherwise: neither a real change >= e nor equivalence is shown yet.
// Both tests treat A and B as independent samples; interleaving them (ABAB...)
// is what keeps drift from biasing one side.
Comparison compare(std::span<const double> a, std::span<const double> b,
                   const VerdictCriteria& criteria = {});

// True while the verdict is AMBIGUOUS: more samples may settle it.
bool needs_more_samples(const Comparison& comparison);

}  // namespace kblaster
