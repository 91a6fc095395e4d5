#include "github/claim_review.h"

#include <array>
#include <cmath>
#include <cstdio>

#include "core/between_machines.h"
#include "core/failing_verdict.h"
#include "core/markup_escape.h"

namespace kblaster {
namespace {

const nlohmann::json* row_of(const nlohmann::json& check, const std::string& kernel) {
  if (!check.is_object() || !check.contains("kernels") || !check["kernels"].is_array())
    return nullptr;
  for (const auto& row : check["kernels"])
    if (row.is_object() && row.value("kernel", "") == kernel) return &row;
  return nullptr;
}

std::optional<MeasuredSpeedup> speedup_of(const nlohmann::json& timing) {
  if (!timing.is_object()) return std::nullopt;
  const auto number = [&](const char* key) {
    return timing.contains(key) && timing[key].is_number() ? timing[key].get<double>() : 0.0;
  };
  const double ratio = number("ratio"), low = number("ci_low"), high = number("ci_high");
  if (!(ratio > 0 && low > 0 && high > 0) || !timing.value("trusted", false)) return std::nullopt;
  return MeasuredSpeedup{1.0 / ratio, 1.0 / high, 1.0 / low};
}

ClaimAnswer answer(const SpeedupClaim& claim, const nlohmann::json& check) {
  ClaimAnswer a{.claim = claim,
                .measured = std::nullopt,
                .verdict = ClaimVerdict::not_measured,
                .reason = {}};
  const nlohmann::json* row = row_of(check, claim.kernel);
  if (!row) {
    a.reason = "this PR's check has no kernel " + claim.kernel + " (it is not changed here)";
    return a;
  }
  const std::string verdict = row->value("verdict", "");
  a.reason = row->value("reason", "");
  if (is_failing_verdict(verdict)) {
    a.verdict = ClaimVerdict::fails_verification;
    return a;
  }
  if (row->contains("timing")) a.measured = speedup_of((*row)["timing"]);
  if (verdict == "FASTER" && a.measured) {
    // The claim was measured on the author's machine: another GPU of the same model can give
    // more than this CI's upper end (core/between_machines.h).
    a.verdict = claim.factor <= a.measured->high * (1 + kBetweenMachines)
                    ? ClaimVerdict::confirmed
                    : ClaimVerdict::overstated;
  } else if (a.measured && (verdict == "SAME" || verdict == "SLOWER" || verdict == "AMBIGUOUS")) {
    a.verdict = ClaimVerdict::not_faster;
  } else if (a.reason.empty()) {
    a.reason = verdict.empty() ? "no verdict" : verdict + ": no A/B against base";
  }
  return a;
}

std::string fixed(double v, int digits) {
  std::array<char, 32> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%.*f", digits, v);
  return buffer.data();
}

}  // namespace

std::string_view claim_verdict_name(ClaimVerdict verdict) {
  switch (verdict) {
    case ClaimVerdict::confirmed:
      return "confirmed";
    case ClaimVerdict::overstated:
      return "overstated";
    case ClaimVerdict::not_faster:
      return "not faster";
    case ClaimVerdict::fails_verification:
      return "fails verification";
    case ClaimVerdict::not_measured:
      return "not measured";
  }
  return "not measured";
}

std::vector<ClaimAnswer> answer_claims(const std::vector<SpeedupClaim>& claims,
                                       const nlohmann::json& check) {
  std::vector<ClaimAnswer> answers;
  for (const auto& claim : claims) answers.push_back(answer(claim, check));
  return answers;
}

std::string_view review_event(const std::vector<ClaimAnswer>& answers, bool request_changes) {
  for (const auto& a : answers)
    if (request_changes && a.verdict == ClaimVerdict::fails_verification) return "REQUEST_CHANGES";
  return "COMMENT";
}

std::string review_body(const std::vector<ClaimAnswer>& answers,
                        const std::vector<std::string>& ignored, std::string_view head_sha) {
  std::size_t confirmed = 0;
  for (const auto& a : answers) confirmed += a.verdict == ClaimVerdict::confirmed ? 1 : 0;
  std::string body = "<!-- kblaster:review head=" + std::string(head_sha) + " -->\n";
  body += "## kblaster: " + std::to_string(confirmed) + " of " + std::to_string(answers.size()) +
          " claimed speedup(s) confirmed\n\n";
  if (answers.empty())
    body += "This PR's body claims no speedup (a line such as `kernel: softmax 1.8x`).\n";
  if (!answers.empty()) {
    body +=
        "Each claimed kernel was verified at every declared size, then timed against base "
        "in one process (A/B); the CI is the A/B's 99% interval of base time / head time. A "
        "claim is confirmed up to " +
        std::to_string(static_cast<int>(std::lround(kBetweenMachines * 100))) +
        "% above the CI's upper end, since it was measured on another machine, and two machines "
        "with the same GPU model have differed by about 2% on the same change.\n\n";
    body +=
        "| kernel | claimed | measured (99% CI) | verdict | reason |\n|---|---:|---:|---|---|\n";
  }
  for (const auto& a : answers) {
    const std::string measured = a.measured ? fixed(a.measured->value, 2) + "x (" +
                                                  fixed(a.measured->low, 2) + "–" +
                                                  fixed(a.measured->high, 2) + ")"
                                            : "–";
    body += "| " + markdown_escape(a.claim.kernel) + " | " + fixed(a.claim.factor, 2) + "x | " +
            measured + " | **" + std::string(claim_verdict_name(a.verdict)) + "** | " +
            markdown_escape(a.reason) + " |\n";
  }
  if (!ignored.empty()) {
    body += "\n<details><summary>Lines not read as claims</summary>\n\n";
    for (const auto& line : ignored) body += "- " + markdown_escape(line) + "\n";
    body += "\n</details>\n";
  }
  return body;
}

}  // namespace kblaster
