#include "stats/ab_verdict.h"

#include <cstdio>

#include "stats/bootstrap.h"
#include "stats/mann_whitney.h"
#include "stats/quantile.h"

namespace kblaster {
namespace {

std::string format(const char* fmt, auto... args) {
  char buf[320];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

// "B/A 1.0312 (99% CI 1.0201..1.0425), Mann-Whitney p=3.1e-05, n=200/200"
std::string numbers(const Comparison& c, double alpha) {
  return format("B/A %.4f (%g%% CI %.4f..%.4f), Mann-Whitney p=%.2g, n=%zu/%zu", c.ratio,
                100 * (1 - alpha), c.ci_low, c.ci_high, c.mann_whitney_p, c.n_a, c.n_b);
}

std::string ambiguity(const Comparison& c, double alpha, double e) {
  if (c.mann_whitney_p < alpha && (c.ci_low > 1 || c.ci_high < 1)) {
    return format("significant change of %+.1f%%, under the %g%% minimum, but CI not within +-%g%%",
                  100 * (c.ratio - 1), 100 * e, 100 * e);
  }
  return format("no significant change, but CI not within +-%g%%", 100 * e);
}

}  // namespace

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::faster:
      return "FASTER";
    case Verdict::slower:
      return "SLOWER";
    case Verdict::same:
      return "SAME";
    case Verdict::ambiguous:
      return "AMBIGUOUS";
  }
  return "?";
}

Comparison compare(std::span<const double> a, std::span<const double> b,
                   const VerdictCriteria& criteria) {
  Comparison c;
  c.n_a = a.size();
  c.n_b = b.size();
  const double median_a = median_of(a);
  if (c.n_a < criteria.min_samples || c.n_b < criteria.min_samples || !(median_a > 0)) {
    c.reason = format("AMBIGUOUS: too few samples (n=%zu/%zu, need %zu each) or median(A) <= 0",
                      c.n_a, c.n_b, criteria.min_samples);
    return c;
  }
  c.ratio = median_of(b) / median_a;
  const RatioInterval ci = bootstrap_median_ratio(
      a, b, {criteria.bootstrap_resamples, 1 - criteria.alpha, criteria.seed});
  c.ci_low = ci.low;
  c.ci_high = ci.high;
  c.mann_whitney_p = mann_whitney(a, b).p;

  const double e = criteria.min_effect;
  const bool significant = c.mann_whitney_p < criteria.alpha;
  std::string why;
  if (significant && c.ci_low > 1 && c.ratio >= 1 + e) {
    c.verdict = Verdict::slower;
    why = format("significantly slower, by %.1f%% >= %g%%", 100 * (c.ratio - 1), 100 * e);
  } else if (significant && c.ci_high < 1 && c.ratio <= 1 - e) {
    c.verdict = Verdict::faster;
    why = format("significantly faster, by %.1f%% >= %g%%", 100 * (1 - c.ratio), 100 * e);
  } else if (c.ci_low >= 1 - e && c.ci_high <= 1 + e) {
    c.verdict = Verdict::same;
    why = format("CI within +-%g%%", 100 * e);
  } else {
    why = ambiguity(c, criteria.alpha, e);
  }
  c.reason = std::string(verdict_name(c.verdict)) + ": " + numbers(c, criteria.alpha) + ": " + why;
  return c;
}

bool needs_more_samples(const Comparison& comparison) {
  return comparison.verdict == Verdict::ambiguous;
}

}  // namespace kblaster
