#include "report/bench_reader.h"

#include <cstdio>

#include "report/provenance_facts.h"

namespace kblaster {
namespace {

// "IQR 1.93%, CONVERGED, noise 0.02%": how steady the median is.
std::string steadiness(double rel_iqr, const std::string& stop, double noise) {
  char text[96];
  std::snprintf(text, sizeof text, "IQR %.2f%%, %s, noise %.2f%%", rel_iqr * 100, stop.c_str(),
                noise * 100);
  return text;
}

// The kernel's `baselines` (bench --baseline torch), when it has them.
Status read_baselines(const JsonField& row, KernelView& k) {
  if (!row["baselines"].present()) return Ok{};
  auto items = row["baselines"].items();
  if (!items) return items.error();
  for (const JsonField& b : *items) {
    BaselineView v;
    auto mode = b["mode"].string();
    if (!mode) return mode.error();
    v.mode = *mode;
    auto failed = b["failed"].optional_string();
    if (!failed) return failed.error();
    v.failed = *failed;
    if (v.failed.empty()) {
      auto median = b["median_s"].number();
      if (!median) return median.error();
      auto speedup = b["speedup"].number();
      if (!speedup) return speedup.error();
      v.median_s = *median;
      v.speedup = *speedup;
    }
    k.baselines.push_back(std::move(v));
  }
  return Ok{};
}

Result<KernelView> read_kernel(const JsonField& row) {
  KernelView k{.base = "-", .head = "-"};  // the head column shows the median when timed
  auto name = row["name"].string();
  if (!name) return name.error();
  k.name = *name;
  KB_TRY(read_baselines(row, k));
  auto status = row["verification"]["status"].string();
  if (!status) return status.error();
  auto sizes = row["verification"]["sizes"].items();
  if (!sizes) return sizes.error();
  if (*status != "passed") {
    auto why = row["verification"]["skip_reason"].optional_string();
    if (!why) return why.error();
    k.finding = *status == "failed" ? Finding::regression : Finding::skipped;
    k.reason = *status == "failed" ? "failed verification" : *why;
    k.verification.push_back(k.reason);
    return k;
  }
  k.verification.push_back("verified at " + std::to_string(sizes->size()) +
                           " size(s) before it was timed");
  const JsonField m = row["measurement"];
  if (!m.present()) {
    auto stopped = row["stopped"].optional_string();
    if (!stopped) return stopped.error();
    k.finding = Finding::skipped;
    k.reason = stopped->empty() ? "not timed" : *stopped;
    return k;
  }
  auto median = m["median_s"].number();
  if (!median) return median.error();
  auto trusted = m["trusted"].boolean();
  if (!trusted) return trusted.error();
  auto rel_iqr = m["rel_iqr"].number();
  if (!rel_iqr) return rel_iqr.error();
  auto stop = m["stop"].string();
  if (!stop) return stop.error();
  auto noise = m["noise"].number();
  if (!noise) return noise.error();
  k.head_time = exact(*median);
  k.finding = *trusted ? Finding::timed : Finding::rejected;
  k.reason = steadiness(*rel_iqr, *stop, *noise);
  return k;
}

}  // namespace

Result<ResultView> read_bench(const JsonField& root) {
  ResultView view;
  view.kind = ResultKind::bench;
  auto facts = provenance_facts(root["provenance"]);
  if (!facts) return facts.error();
  view.facts = std::move(*facts);
  view.title = "bench";
  auto rows = root["kernels"].items();
  if (!rows) return rows.error();
  for (const JsonField& row : *rows) {
    auto k = read_kernel(row);
    if (!k) return k.error();
    view.kernels.push_back(std::move(*k));
  }
  auto skipped = root["skipped"].optional_string();
  if (!skipped) return skipped.error();
  if (!skipped->empty()) view.notes.push_back(*skipped);
  return view;
}

Result<ResultView> read_run(const JsonField& root) {
  auto view = read_bench(root);
  if (!view) return view.error();
  view->kind = ResultKind::run;
  view->title = "run";
  return view;
}

}  // namespace kblaster
