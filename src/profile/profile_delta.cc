#include "profile/profile_delta.h"

#include <cmath>
#include <cstdio>

namespace kblaster {
namespace {

// A metric of the delta: its name, unit, scale from base units, and reader.
struct Metric {
  const char* name;
  const char* unit;
  double scale;
  std::optional<double> KernelProfile::*field;
};

constexpr Metric kMetrics[] = {
    {"duration", "us", 1e6, &KernelProfile::duration_s},
    {"SM throughput", "%", 1.0, &KernelProfile::sm_throughput_pct},
    {"memory throughput", "%", 1.0, &KernelProfile::memory_throughput_pct},
    {"DRAM throughput", "%", 1.0, &KernelProfile::dram_throughput_pct},
    {"L2 throughput", "%", 1.0, &KernelProfile::l2_throughput_pct},
    {"L1 throughput", "%", 1.0, &KernelProfile::l1_throughput_pct},
    {"DRAM read", "MB", 1e-6, &KernelProfile::dram_bytes_read},
    {"DRAM written", "MB", 1e-6, &KernelProfile::dram_bytes_written},
    {"achieved occupancy", "%", 1.0, &KernelProfile::achieved_occupancy_pct},
    {"registers per thread", "", 1.0, &KernelProfile::registers_per_thread},
    {"global load sectors/request", "", 1.0, &KernelProfile::global_load_sectors_per_request},
    {"FMA pipe", "%", 1.0, &KernelProfile::fma_pipe_pct},
    {"tensor pipe", "%", 1.0, &KernelProfile::tensor_pipe_pct},
};

std::string number(const std::optional<double>& v) {
  if (!v) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(*v) >= 100 ? "%.0f" : "%.3g", *v);
  return buf;
}

std::string change(const ProfileDelta::Row& r) {
  if (!r.before || !r.after) return "";
  char buf[32];
  if (r.unit == std::string("%")) {
    std::snprintf(buf, sizeof buf, "%+.1f pts", *r.after - *r.before);
  } else if (*r.before != 0.0) {
    std::snprintf(buf, sizeof buf, "%+.1f%%", (*r.after / *r.before - 1.0) * 100.0);
  } else {
    return *r.after == 0.0 ? "0" : "new";
  }
  return buf;
}

}  // namespace

ProfileDelta profile_delta(const KernelProfile& before, const PerfState& before_state,
                           const KernelProfile& after, const PerfState& after_state) {
  ProfileDelta d;
  for (const Metric& m : kMetrics) {
    const auto& b = before.*(m.field);
    const auto& a = after.*(m.field);
    if (!b && !a) continue;
    ProfileDelta::Row row{m.name, m.unit, std::nullopt, std::nullopt};
    if (b) row.before = *b * m.scale;
    if (a) row.after = *a * m.scale;
    d.rows.push_back(row);
  }
  d.state_before = before_state.key;
  d.state_after = after_state.key;
  return d;
}

void print_profile_metrics(std::ostream& out, const KernelProfile& profile) {
  for (const Metric& m : kMetrics)
    if (const auto& v = profile.*(m.field))
      out << "- " << m.name << ": " << number(*v * m.scale) << (*m.unit ? " " : "") << m.unit
          << "\n";
}

void print_profile_delta(std::ostream& out, const ProfileDelta& delta) {
  out << "| metric | before | after | change |\n|---|---|---|---|\n";
  for (const auto& r : delta.rows) {
    const std::string unit = r.unit.empty() ? "" : " " + r.unit;
    out << "| " << r.metric << " | " << number(r.before) << (r.before ? unit : "") << " | "
        << number(r.after) << (r.after ? unit : "") << " | " << change(r) << " |\n";
  }
  out << "state: " << delta.state_before << " -> " << delta.state_after
      << (delta.state_before == delta.state_after ? " (unchanged)" : "") << "\n";
}

nlohmann::json to_json(const ProfileDelta& delta) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : delta.rows)
    rows.push_back({{"metric", r.metric},
                    {"unit", r.unit},
                    {"before", r.before ? nlohmann::json(*r.before) : nlohmann::json()},
                    {"after", r.after ? nlohmann::json(*r.after) : nlohmann::json()}});
  return {
      {"metrics", rows}, {"state_before", delta.state_before}, {"state_after", delta.state_after}};
}

}  // namespace kblaster
