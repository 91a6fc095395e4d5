#include "stats/throttle_filter.h"

#include <cmath>

#include "stats/quantile.h"

namespace kblaster {
namespace {

bool is_known(double clock_mhz) { return std::isfinite(clock_mhz) && clock_mhz > 0; }

}  // namespace

ThrottleSelection select_unthrottled(std::span<const double> clocks_mhz,
                                     ThrottleCriteria criteria) {
  std::vector<double> known;
  known.reserve(clocks_mhz.size());
  for (double c : clocks_mhz) {
    if (is_known(c)) known.push_back(c);
  }
  ThrottleSelection out;
  out.median_mhz = median_of(known);
  out.cutoff_mhz = criteria.threshold * out.median_mhz;
  for (std::size_t i = 0; i < clocks_mhz.size(); ++i) {
    if (is_known(clocks_mhz[i]) && clocks_mhz[i] < out.cutoff_mhz) {
      ++out.dropped;
    } else {
      out.kept.push_back(i);
    }
  }
  return out;
}

std::vector<double> kept_samples(std::span<const double> samples,
                                 const ThrottleSelection& selection) {
  std::vector<double> out;
  out.reserve(selection.kept.size());
  for (std::size_t i : selection.kept) {
    if (i < samples.size()) out.push_back(samples[i]);
  }
  return out;
}

bool ThrottleGate::admit(double clock_mhz) {
  if (!is_known(clock_mhz)) return true;  // unknown: keep
  if (lower_.empty() || clock_mhz <= lower_.top())
    lower_.push(clock_mhz);
  else
    upper_.push(clock_mhz);
  if (lower_.size() > upper_.size() + 1) {
    upper_.push(lower_.top());
    lower_.pop();
  } else if (upper_.size() > lower_.size()) {
    lower_.push(upper_.top());
    upper_.pop();
  }
  const bool keep = clock_mhz >= criteria_.threshold * median_mhz();
  if (!keep) ++dropped_;
  return keep;
}

double ThrottleGate::median_mhz() const {
  if (lower_.empty()) return 0.0;
  if (lower_.size() > upper_.size()) return lower_.top();
  return 0.5 * (lower_.top() + upper_.top());
}

}  // namespace kblaster
