// A profile delta: the metrics a reviewer reads, before and after a change, and
// the performance state at each end. A report block reused by `classify
// --before-csv`, `profile` and the reports of optimisation runs.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "profile/kernel_profile.h"
#include "profile/perf_state.h"

namespace kblaster {

struct ProfileDelta {
  struct Row {
    std::string metric;  // "duration", "DRAM throughput", …
    std::string unit;    // "us", "%", "GB", "regs", …
    std::optional<double> before, after;
  };
  std::vector<Row> rows;  // in a fixed order; rows missing at both ends are left out
  std::string state_before, state_after;
};

// The delta from `before` to `after` (their summed profiles and states).
ProfileDelta profile_delta(const KernelProfile& before, const PerfState& before_state,
                           const KernelProfile& after, const PerfState& after_state);

// A Markdown table (metric | before | after | change), then the state line;
// fit for a terminal and for a PR comment alike.
void print_profile_delta(std::ostream& out, const ProfileDelta& delta);

nlohmann::json to_json(const ProfileDelta& delta);

// The delta's metrics of one profile, one line each ("- DRAM throughput: 41.2 %"), those it
// lacks left out: what a prompt shows of a profile.
void print_profile_metrics(std::ostream& out, const KernelProfile& profile);

}  // namespace kblaster
