#include "report/optimize_reader.h"

#include <cstdio>

#include "report/number_text.h"
#include "report/provenance_facts.h"
#include "report/speedup_caveat.h"
#include "report/view_fields.h"

namespace kblaster {
namespace {

Result<std::vector<SearchPoint>> read_search(const JsonField& steps) {
  auto items = steps.items();
  if (!items) return items.error();
  std::vector<SearchPoint> out;
  for (const JsonField& s : *items) {
    auto best = s["best_speedup_after"].number();
    if (!best) return best.error();
    auto elapsed = s["elapsed_s"].optional_number();
    if (!elapsed) return elapsed.error();
    out.push_back({.evaluation = static_cast<int>(out.size()) + 1,
                   .elapsed_s = *elapsed,
                   .best_speedup = *best});
  }
  return out;
}

// "14 calls, 52651 tokens in, 11104 out, $0.0123" for a result's `llm` totals (search
// results' kernels[].llm, or the run's llm), "cost unknown" when a model had no price; ""
// when the result has none.
Result<std::string> llm_totals_text(const JsonField& llm) {
  if (!llm.present()) return std::string();
  auto calls = llm["calls"].unsigned_integer();
  if (!calls) return calls.error();
  auto in = llm["tokens_in"].unsigned_integer();
  if (!in) return in.error();
  auto out = llm["tokens_out"].unsigned_integer();
  if (!out) return out.error();
  auto cost = llm["cost_usd"].optional_number();
  if (!cost) return cost.error();
  std::string dollars = "cost unknown (no price for the model)";
  if (*cost) {
    char text[32];
    std::snprintf(text, sizeof text, "$%.4f", **cost);
    dollars = text;
  }
  return std::to_string(*calls) + " calls, " + std::to_string(*in) + " tokens in, " +
         std::to_string(*out) + " out, " + dollars;
}

// A line on the best's source form (search/source_form_check.h), when it has one: what
// was written as source, and how the form fared.
Status read_source_form(const JsonField& form, KernelView& k) {
  if (!form.present()) return Ok{};
  auto status = form["status"].string();
  if (!status) return status.error();
  auto rewrites = read_strings(form["rewrites"]);
  if (!rewrites) return rewrites.error();
  auto not_carried = read_strings(form["not_carried"]);
  if (!not_carried) return not_carried.error();
  std::string line = "source form: " + *status;
  if (*status == "verified") {
    auto verdict = form["speedup"]["verdict"].string();
    if (!verdict) return verdict.error();
    auto value = form["speedup"]["value"].optional_number();
    if (!value) return value.error();
    line += ", " + *verdict;
    if (*value) line += " " + format_ratio(**value) + " against the baseline";
  }
  for (const auto& r : *rewrites) line += "; " + r;
  for (const auto& n : *not_carried) line += "; not carried: " + n;
  k.verification.push_back(line);
  return Ok{};
}

// Lines on how the best was verified, what it needs and why the search stopped.
Status read_verification(const JsonField& j, KernelView& k) {
  auto verification = j["verification"].optional_string();
  if (!verification) return verification.error();
  if (!verification->empty()) k.verification.push_back("verified: " + *verification);
  auto soft = read_strings(j["soft_verification"]);
  if (!soft) return soft.error();
  if (soft->empty()) k.verification.push_back("soft verification: passed");
  for (const auto& f : *soft) k.verification.push_back("soft verification: " + f);
  auto settings = read_strings(j["settings_needed"]);
  if (!settings) return settings.error();
  for (const auto& s : *settings)
    k.verification.push_back("the best also needs, in kblaster.toml: " + s);
  KB_TRY(read_source_form(j["source_form"], k));
  auto llm = llm_totals_text(j["llm"]);
  if (!llm) return llm.error();
  if (!llm->empty()) k.verification.push_back("the model: " + *llm);
  for (const auto& [field, label] : {std::pair{"profile_delta_missing", "no profile delta: "},
                                     std::pair{"stop_reason", "search stopped: "}}) {
    auto text = j[field].optional_string();
    if (!text) return text.error();
    if (!text->empty()) k.verification.push_back(label + *text);
  }
  return Ok{};
}

Result<KernelView> read_kernel(const JsonField& j) {
  KernelView k;
  auto name = j["kernel"].string();
  if (!name) return name.error();
  k.name = *name;
  auto status = j["status"].optional_string();
  if (!status) return status.error();
  if (*status == "skipped") {
    auto why = j["skip_reason"].string();
    if (!why) return why.error();
    k.base.assign(1, '-');  // not = "-": GCC 12 warns falsely (-Wrestrict) on that
    k.head = k.base;
    k.finding = Finding::skipped;
    k.reason = *why;
    return k;
  }
  const JsonField speedup = j["speedup"];
  auto finding = read_finding(speedup["verdict"]);
  if (!finding) return finding.error();
  k.finding = *finding;
  auto reason = speedup["reason"].optional_string();
  if (!reason) return reason.error();
  k.reason = *reason;
  auto gain = read_estimate(speedup["value"], speedup["ci_low"], speedup["ci_high"]);
  if (!gain) return gain.error();
  if (*gain) k.ratio = reciprocal(**gain);
  auto times = read_sample_times(j["final_ab"]);
  if (!times) return times.error();
  if (*times) k.base_time = (*times)->a, k.head_time = (*times)->b;
  auto path = read_strings(j["path"]);
  if (!path) return path.error();
  k.path = *path;
  k.base = "baseline";
  for (const auto& t : k.path) k.head += (k.head.empty() ? "" : " \u2192 ") + t;
  if (k.head.empty()) k.head = "baseline (nothing faster)";
  KB_TRY(read_verification(j, k));
  auto search = read_search(j["steps"]);
  if (!search) return search.error();
  k.search = std::move(*search);
  auto profile = read_profile_change(j["profile_delta"]);
  if (!profile) return profile.error();
  k.profile = std::move(*profile);
  auto roofline = read_roofline(j["roofline"]);
  if (!roofline) return roofline.error();
  k.roofline = std::move(*roofline);
  return k;
}

}  // namespace

Result<ResultView> read_optimize(const JsonField& root) {
  ResultView view;
  view.kind = ResultKind::optimize;
  auto facts = provenance_facts(root["provenance"]);
  if (!facts) return facts.error();
  view.facts = std::move(*facts);
  auto llm = llm_totals_text(root["llm"]);
  if (!llm) return llm.error();
  if (!llm->empty()) {
    auto backend = root["llm"]["backend"].optional_string();
    if (!backend) return backend.error();
    auto model = root["llm"]["model"].optional_string();
    if (!model) return model.error();
    view.facts.emplace_back("LLM policy",
                            *backend + (model->empty() ? "" : " " + *model) + ": " + *llm);
  }
  auto head = root["provenance"]["head_sha"].optional_string();
  if (!head) return head.error();
  view.title = head->empty() ? "optimize" : "optimize at " + short_sha(*head);
  auto kernels = root["kernels"].items();
  if (!kernels) return kernels.error();
  for (const JsonField& j : *kernels) {
    auto k = read_kernel(j);
    if (!k) return k.error();
    view.kernels.push_back(std::move(*k));
  }
  auto skipped = root["skipped"].optional_string();
  if (!skipped) return skipped.error();
  if (!skipped->empty()) view.notes.push_back(*skipped);
  if (reports_a_speedup(view)) view.notes.push_back(speedup_caveat());
  return view;
}

}  // namespace kblaster
