#include "report/view_fields.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/input_limits.h"
#include "stats/median_interval.h"

namespace kblaster {
namespace {

std::optional<double> finite(std::optional<double> v) {
  return v && std::isfinite(*v) ? v : std::nullopt;
}

std::optional<double> inverse(std::optional<double> v) {
  return v && *v != 0.0 ? finite(1.0 / *v) : std::nullopt;
}

}  // namespace

Result<Finding> read_finding(const JsonField& field) {
  auto name = field.string();
  if (!name) return name.error();
  if (auto f = finding_from_name(*name)) return *f;
  std::string known;
  for (Finding f : kAllFindings)
    known += (known.empty() ? "" : ", ") + std::string(finding_name(f));
  return field.error(quote_input(*name) + " is not a verdict kblaster knows (" + known + ")");
}

Result<std::optional<Estimate>> read_estimate(const JsonField& value, const JsonField& low,
                                              const JsonField& high) {
  auto v = value.optional_number();
  if (!v) return v.error();
  if (!*v) return std::optional<Estimate>();
  auto l = low.optional_number();
  if (!l) return l.error();
  auto h = high.optional_number();
  if (!h) return h.error();
  return std::optional<Estimate>(Estimate{.value = **v, .low = finite(*l), .high = finite(*h)});
}

Result<std::optional<ProfileChange>> read_profile_change(const JsonField& delta) {
  if (!delta.present()) return std::optional<ProfileChange>();
  ProfileChange out;
  auto rows = delta["metrics"].items();
  if (!rows) return rows.error();
  for (const JsonField& r : *rows) {
    MetricChange m;
    auto metric = r["metric"].string();
    if (!metric) return metric.error();
    auto unit = r["unit"].optional_string();
    if (!unit) return unit.error();
    auto before = r["before"].optional_number();
    if (!before) return before.error();
    auto after = r["after"].optional_number();
    if (!after) return after.error();
    out.rows.push_back({.metric = *metric, .unit = *unit, .before = *before, .after = *after});
  }
  for (auto [field, into] :
       {std::pair{"state_before", &out.state_before}, std::pair{"state_after", &out.state_after}}) {
    auto s = delta[field].optional_string();
    if (!s) return s.error();
    *into = *s;
  }
  return std::optional<ProfileChange>(std::move(out));
}

Result<std::optional<SampleTimes>> read_sample_times(const JsonField& ab) {
  std::vector<double> times[2];
  const char* names[2] = {"a_s", "b_s"};
  for (int i = 0; i < 2; ++i) {
    auto samples = ab["samples"][names[i]].items();
    if (!samples) return samples.error();
    for (const JsonField& s : *samples) {
      auto t = s.number();
      if (!t) return t.error();
      times[i].push_back(*t);
    }
    if (times[i].empty()) return std::optional<SampleTimes>();
    std::sort(times[i].begin(), times[i].end());
  }
  auto estimate = [](const std::vector<double>& sorted) {
    const MedianInterval m = median_interval_of_sorted(sorted);
    return Estimate{.value = m.median, .low = m.low, .high = m.high};
  };
  return std::optional<SampleTimes>(SampleTimes{.a = estimate(times[0]), .b = estimate(times[1])});
}

Result<std::vector<std::string>> read_strings(const JsonField& list) {
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

Estimate reciprocal(const Estimate& e) {
  return {.value = e.value != 0.0 ? 1.0 / e.value : std::nan(""),
          .low = inverse(e.high),
          .high = inverse(e.low)};
}

}  // namespace kblaster
