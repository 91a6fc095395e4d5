#include "report/finding.h"

namespace kblaster {
namespace {

struct FindingRow {
  Finding finding;
  std::string_view name;
  std::string_view phrase;
  Tone tone;
};

// One row per Finding, in enum order.
constexpr FindingRow kRows[] = {
    {Finding::regression, "REGRESSION", "failing verification", Tone::bad},
    {Finding::build_failed, "BUILD_FAILED", "failing to build", Tone::bad},
    {Finding::rejected, "REJECTED", "rejected", Tone::bad},
    {Finding::slower, "SLOWER", "slower", Tone::bad},
    {Finding::ambiguous, "AMBIGUOUS", "ambiguous", Tone::neutral},
    {Finding::faster, "FASTER", "faster", Tone::good},
    {Finding::same, "SAME", "unchanged", Tone::neutral},
    {Finding::timed, "TIMED", "timed", Tone::neutral},
    {Finding::new_kernel, "NEW", "new", Tone::neutral},
    {Finding::deleted, "DELETED", "deleted", Tone::neutral},
    {Finding::unverified, "UNVERIFIED", "unverified", Tone::bad},
    {Finding::not_compared, "NOT_COMPARED", "not compared", Tone::bad},
    {Finding::skipped, "SKIPPED", "skipped", Tone::neutral},
};

const FindingRow& row(Finding finding) { return kRows[static_cast<int>(finding)]; }

}  // namespace

std::string_view finding_name(Finding finding) { return row(finding).name; }

std::optional<Finding> finding_from_name(std::string_view name) {
  for (const auto& r : kRows)
    if (r.name == name) return r.finding;
  return std::nullopt;
}

std::string_view finding_phrase(Finding finding) { return row(finding).phrase; }

Tone finding_tone(Finding finding) { return row(finding).tone; }

std::string_view tone_name(Tone tone) {
  switch (tone) {
    case Tone::good:
      return "good";
    case Tone::bad:
      return "bad";
    case Tone::neutral:
      return "neutral";
  }
  return "neutral";
}

}  // namespace kblaster
