#include "report/view_fields.h"

#include <cmath>

#include "core/input_limits.h"

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

Estimate reciprocal(const Estimate& e) {
  return {.value = e.value != 0.0 ? 1.0 / e.value : std::nan(""),
          .low = inverse(e.high),
          .high = inverse(e.low)};
}

}  // namespace kblaster
