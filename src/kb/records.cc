#include "kb/records.h"

#include <algorithm>
#include <array>

namespace kblaster {

namespace {
constexpr std::array<std::string_view, 5> kOutcomeNames = {"compile_failure", "verify_failure",
                                                           "slower", "same", "faster"};
}  // namespace

std::string_view outcome_name(StepOutcome outcome) {
  return kOutcomeNames[static_cast<size_t>(outcome)];
}

std::optional<StepOutcome> parse_outcome(std::string_view name) {
  for (size_t i = 0; i < kOutcomeNames.size(); ++i)
    if (kOutcomeNames[i] == name) return static_cast<StepOutcome>(i);
  return std::nullopt;
}

double TechniqueStats::variance_log_speedup() const {
  if (measured < 2) return 0.0;
  const double n = static_cast<double>(measured);
  const double centred = sum_sq_log_speedup - sum_log_speedup * sum_log_speedup / n;
  return std::max(0.0, centred / (n - 1));  // rounding may dip just below 0
}

}  // namespace kblaster
