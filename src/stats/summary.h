// Descriptive statistics of one set of timing samples, as reports show them.
#pragma once

#include <cstddef>
#include <span>

namespace kblaster {

// Quantiles use linear interpolation (type 7, see stats/quantile.h); stdev is
// the sample standard deviation (n-1 denominator; 0 when n < 2). Relative
// fields are 0 when their denominator is 0. All fields are 0 for empty input.
struct Summary {
  std::size_t n = 0;
  double median = 0, q1 = 0, q3 = 0;
  double iqr = 0;      // q3 - q1
  double rel_iqr = 0;  // iqr / median
  double mean = 0, stdev = 0;
  double rel_stdev = 0;  // stdev / mean
  double min = 0, max = 0;
};

// Summarizes `samples` (any order; not modified). NaNs are the caller's bug.
Summary summarize(std::span<const double> samples);

}  // namespace kblaster
