#include "report/check_reader.h"

#include "report/provenance_facts.h"
#include "report/view_fields.h"

namespace kblaster {
namespace {

// Whether check verified head at every size before it reached this finding.
bool verified_first(Finding f) {
  return f == Finding::faster || f == Finding::slower || f == Finding::same ||
         f == Finding::ambiguous || f == Finding::not_compared || f == Finding::rejected;
}

// The build of kernel `name` in builds.<end>, as its summary; "" when not listed.
Result<std::string> build_line(const JsonField& root, const char* end, const std::string& name) {
  auto kernels = root["builds"][end]["kernels"].items();
  if (!kernels) return kernels.error();
  for (const JsonField& k : *kernels) {
    auto n = k["name"].string();
    if (!n) return n.error();
    if (*n != name) continue;
    auto summary = k["summary"].optional_string();
    if (!summary) return summary.error();
    auto reference = k["reference"]["summary"].optional_string();
    if (!reference) return reference.error();
    return std::string(end) + ": " + *summary +
           (reference->empty() ? "" : "; its reference " + *reference);
  }
  return std::string();
}

Result<KernelView> read_row(const JsonField& root, const JsonField& row) {
  KernelView k;
  for (auto [field, into] : {std::pair{"kernel", &k.name}, std::pair{"base", &k.base},
                             std::pair{"head", &k.head}, std::pair{"reason", &k.reason}}) {
    auto s = row[field].string();
    if (!s) return s.error();
    *into = *s;
  }
  auto finding = read_finding(row["verdict"]);
  if (!finding) return finding.error();
  k.finding = *finding;
  const JsonField timing = row["timing"];
  auto ratio = read_estimate(timing["ratio"], timing["ci_low"], timing["ci_high"]);
  if (!ratio) return ratio.error();
  k.ratio = *ratio;
  auto times = read_sample_times(timing);
  if (!times) return times.error();
  if (*times) k.base_time = (*times)->a, k.head_time = (*times)->b;
  for (const char* end : {"base", "head"}) {
    auto line = build_line(root, end, k.name);
    if (!line) return line.error();
    if (!line->empty()) k.verification.push_back("build " + *line);
  }
  k.verification.push_back(verified_first(k.finding)
                               ? "head: verified at every size before it was timed"
                               : "head: " + k.reason);
  if (timing["recheck"].present()) {
    auto a = timing["recheck"]["a"].boolean();
    if (!a) return a.error();
    auto b = timing["recheck"]["b"].boolean();
    if (!b) return b.error();
    k.verification.push_back(std::string("outputs of the last timed launches re-verified: base ") +
                             (*a ? "passed" : "FAILED") + ", head " + (*b ? "passed" : "FAILED"));
  }
  return k;
}

}  // namespace

Result<ResultView> read_check(const JsonField& root) {
  ResultView view;
  view.kind = ResultKind::check;
  auto facts = provenance_facts(root["provenance"]);
  if (!facts) return facts.error();
  view.facts = std::move(*facts);
  auto base = root["base"].optional_string();
  if (!base) return base.error();
  auto head = root["head"].string();
  if (!head) return head.error();
  view.title = "check " + (base->empty() ? short_sha(*head) + " (no base: every kernel new)"
                                         : short_sha(*base) + ".." + short_sha(*head));
  auto rows = root["kernels"].items();
  if (!rows) return rows.error();
  for (const JsonField& row : *rows) {
    auto k = read_row(root, row);
    if (!k) return k.error();
    view.kernels.push_back(std::move(*k));
  }
  auto skipped = root["skipped"].optional_string();
  if (!skipped) return skipped.error();
  if (!skipped->empty()) view.notes.push_back(*skipped);
  auto kept = root["policy_kept_from_base"].items();
  if (!kept) return kept.error();
  for (const JsonField& line : *kept) {
    auto text = line.string();
    if (!text) return text.error();
    view.notes.push_back("The change loosens the check's policy: " + *text +
                         "; a looser [check] applies once a base revision carries it.");
  }
  return view;
}

}  // namespace kblaster
