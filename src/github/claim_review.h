// `check --review`: each speedup a pull request claims, answered from kblaster's own
// check of that PR (a check result value, reports/schema/check.schema.json), and the
// pull-request review that says so.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "github/claims.h"

namespace kblaster {

// The answer to one claim; claim_verdict_name gives each its stable name.
enum class ClaimVerdict {
  confirmed,           // verified, significantly faster, and the claim at most the CI's upper end
                       // widened by kBetweenMachines (the claim was measured on another machine)
  overstated,          // verified and faster, but by less than claimed (above that)
  not_faster,          // verified, but not significantly faster (same, slower or undecided)
  fails_verification,  // head fails verification, does not build, or its timing was rejected
  not_measured,        // the check did not measure it (not changed by the PR, skipped, …)
};

// "confirmed", "overstated", "not faster", "fails verification", "not measured".
std::string_view claim_verdict_name(ClaimVerdict verdict);

// A speedup measured by an A/B: base time / head time, with its CI.
struct MeasuredSpeedup {
  double value = 0, low = 0, high = 0;
};

// One claim with its answer.
struct ClaimAnswer {
  SpeedupClaim claim;
  std::optional<MeasuredSpeedup> measured;  // when the A/B ran and was trusted
  ClaimVerdict verdict = ClaimVerdict::not_measured;
  std::string reason;  // the check's reason, or why the claim was not measured
};

// Answers each claim from the row of `check` (a check result) for its kernel. Check's
// A/B ratio is head/base time, so the speedup is its reciprocal, CI bounds swapped.
// A result that is not a check result, or a row without the fields of its schema, is
// treated as not measured, saying so; this never throws.
std::vector<ClaimAnswer> answer_claims(const std::vector<SpeedupClaim>& claims,
                                       const nlohmann::json& check);

// The review's event: COMMENT, or REQUEST_CHANGES when `request_changes` and some
// claim fails verification.
std::string_view review_event(const std::vector<ClaimAnswer>& answers, bool request_changes);

// The review's Markdown: a headline, one table row per claim (kernel, claimed,
// measured with its CI, verdict, reason), the lines of the body that were not read as
// claims, and a hidden marker that names the head SHA reviewed.
std::string review_body(const std::vector<ClaimAnswer>& answers,
                        const std::vector<std::string>& ignored, std::string_view head_sha);

}  // namespace kblaster
