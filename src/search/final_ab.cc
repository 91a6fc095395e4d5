#include "search/final_ab.h"

#include <cmath>

namespace kblaster {

Result<FinalAb> final_ab(ResultProbe& probe, const Candidate& baseline,
                         const Candidate& candidate) {
  auto ab = probe.compare(baseline, candidate);
  if (!ab) return ab.error();
  FinalAb out;
  out.final_ab = to_json(*ab);
  const Comparison& c = ab->comparison;
  const bool timed = ab->rejected.empty() && c.ratio > 0.0 && std::isfinite(c.ratio);
  out.verified_faster = timed && c.verdict == Verdict::faster;
  if (timed)
    out.speedup = {{"value", 1.0 / c.ratio},
                   {"ci_low", 1.0 / c.ci_high},
                   {"ci_high", 1.0 / c.ci_low},
                   {"verdict", verdict_name(c.verdict)},
                   {"reason", c.reason}};
  else
    out.speedup = {{"value", nullptr},
                   {"verdict", ab->rejected.empty() ? verdict_name(c.verdict) : "REJECTED"},
                   {"reason", ab->rejected.empty() ? c.reason : ab->rejected}};
  return out;
}

}  // namespace kblaster
