#include "report/optimize_reader.h"

#include "report/provenance_facts.h"
#include "report/view_fields.h"

namespace kblaster {
namespace {

Result<std::vector<std::string>> strings(const JsonField& list) {
  auto items = list.items();
  if (!items) return items.error();
  std::vector<std::string> out;
  for (const JsonField& i : *items) {
    auto s = i.string();
    if (!s) return s.error();
    out.push_back(*s);
  }
  return out;
}

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

// roofline: {dram_bytes_per_s, flops_per_s, before: {arithmetic_intensity,
// flops_per_s}, after: {…}}; nullopt when absent.
Result<std::optional<RooflineView>> read_roofline(const JsonField& r) {
  if (!r.present()) return std::optional<RooflineView>();
  RooflineView view;
  auto bw = r["dram_bytes_per_s"].number();
  if (!bw) return bw.error();
  auto peak = r["flops_per_s"].number();
  if (!peak) return peak.error();
  view.dram_bytes_per_s = *bw, view.flops_per_s = *peak;
  for (const char* end : {"before", "after"}) {
    if (!r[end].present()) continue;
    auto ai = r[end]["arithmetic_intensity"].number();
    if (!ai) return ai.error();
    auto reached = r[end]["flops_per_s"].number();
    if (!reached) return reached.error();
    view.points.push_back({.label = end, .intensity = *ai, .flops_per_s = *reached});
  }
  return std::optional<RooflineView>(std::move(view));
}

Result<KernelView> read_kernel(const JsonField& j) {
  KernelView k;
  k.base = "baseline";
  auto name = j["kernel"].string();
  if (!name) return name.error();
  k.name = *name;
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
  auto path = strings(j["path"]);
  if (!path) return path.error();
  k.path = *path;
  for (const auto& t : k.path) k.head += (k.head.empty() ? "" : " \u2192 ") + t;
  if (k.head.empty()) k.head = "baseline (nothing faster)";
  auto verification = j["verification"].optional_string();
  if (!verification) return verification.error();
  if (!verification->empty()) k.verification.push_back("verified: " + *verification);
  auto soft = strings(j["soft_verification"]);
  if (!soft) return soft.error();
  if (soft->empty()) k.verification.push_back("soft verification: passed");
  for (const auto& f : *soft) k.verification.push_back("soft verification: " + f);
  auto stop = j["stop_reason"].optional_string();
  if (!stop) return stop.error();
  if (!stop->empty()) k.verification.push_back("search stopped: " + *stop);
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
  return view;
}

}  // namespace kblaster
