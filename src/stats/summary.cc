#include "stats/summary.h"

#include <cmath>
#include <vector>

#include "stats/quantile.h"

namespace kblaster {
namespace {

double ratio_or_zero(double num, double den) { return den == 0.0 ? 0.0 : num / den; }

}  // namespace

Summary summarize(std::span<const double> samples) {
  Summary s;
  if (samples.empty()) return s;
  const std::vector<double> sorted = sorted_copy(samples);
  s.n = sorted.size();
  s.min = sorted.front();
  s.max = sorted.back();
  s.q1 = quantile_of_sorted(sorted, 0.25);
  s.median = quantile_of_sorted(sorted, 0.5);
  s.q3 = quantile_of_sorted(sorted, 0.75);
  s.iqr = s.q3 - s.q1;
  s.rel_iqr = ratio_or_zero(s.iqr, s.median);

  double sum = 0;
  for (double x : sorted) sum += x;
  s.mean = sum / static_cast<double>(s.n);
  if (s.n >= 2) {
    double squares = 0;  // two-pass: numerically safe for tightly clustered timings
    for (double x : sorted) squares += (x - s.mean) * (x - s.mean);
    s.stdev = std::sqrt(squares / static_cast<double>(s.n - 1));
  }
  s.rel_stdev = ratio_or_zero(s.stdev, s.mean);
  return s;
}

}  // namespace kblaster
