// What a result says about one kernel, as a report counts and colours it: the
// verdicts of check (reports/schema/check.schema.json), of an A/B and of an
// optimisation, with the stable spellings the results use.
#pragma once

#include <optional>
#include <string_view>

namespace kblaster {

// In the order a headline lists them: what needs attention first.
enum class Finding {
  regression,    // head computes a different function
  build_failed,  // an end did not build
  rejected,      // a timing was thrown out (implausible, or the recheck failed)
  slower,
  ambiguous,
  faster,
  same,
  timed,  // bench: verified and timed, with nothing to compare it against
  new_kernel,
  deleted,
  unverified,
  not_compared,
  skipped,
};

// How a finding reads to a reviewer: what colour and mark it gets.
enum class Tone { good, bad, neutral };

// The result's spelling: "REGRESSION", "SLOWER", "NEW", …
std::string_view finding_name(Finding finding);
// The finding spelled `name`; nullopt for a spelling no result uses.
std::optional<Finding> finding_from_name(std::string_view name);
// How a headline counts it: "slower", "failing verification", "unchanged", …
std::string_view finding_phrase(Finding finding);
// Bad for what needs a reviewer (slower, failing), good for faster, else neutral.
Tone finding_tone(Finding finding);
// "good", "bad", "neutral": the CSS class of a tone.
std::string_view tone_name(Tone tone);

// Every finding, in headline order.
inline constexpr Finding kAllFindings[] = {
    Finding::regression, Finding::build_failed, Finding::rejected,   Finding::slower,
    Finding::ambiguous,  Finding::faster,       Finding::same,       Finding::timed,
    Finding::new_kernel, Finding::deleted,      Finding::unverified, Finding::not_compared,
    Finding::skipped};

}  // namespace kblaster
