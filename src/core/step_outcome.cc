#include "core/step_outcome.h"

#include <array>
#include <cstddef>

namespace kblaster {
namespace {

constexpr std::array<std::string_view, 5> kOutcomeNames = {"compile_failure", "verify_failure",
                                                           "slower", "same", "faster"};

}  // namespace

std::string_view outcome_name(StepOutcome outcome) {
  return kOutcomeNames[static_cast<std::size_t>(outcome)];
}

std::optional<StepOutcome> parse_outcome(std::string_view name) {
  for (std::size_t i = 0; i < kOutcomeNames.size(); ++i)
    if (kOutcomeNames[i] == name) return static_cast<StepOutcome>(i);
  return std::nullopt;
}

}  // namespace kblaster
