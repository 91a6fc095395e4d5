// A saved result read into what a report shows: per kernel, the two ends, their
// ratio with its CI, the finding and why, verification, the profile delta, the
// roofline and the search's progress. Renderers read only this.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/finding.h"

namespace kblaster {

// A number with its confidence interval; the bounds are absent when the result
// has none.
struct Estimate {
  double value = 0.0;
  std::optional<double> low, high;
};

// `value` with no interval.
inline Estimate exact(double value) {
  return {.value = value, .low = std::nullopt, .high = std::nullopt};
}

// One metric of a profile delta, in the result's unit ("us", "%", "GB", …).
struct MetricChange {
  std::string metric, unit;
  std::optional<double> before, after;
};

// A profile delta: key metrics at both ends, and the performance state at each.
struct ProfileChange {
  std::vector<MetricChange> rows;
  std::string state_before, state_after;
};

// A kernel's place under the roofline at one end: FLOP per DRAM byte, and FLOP/s
// reached. Both must be positive to be drawn.
struct RooflinePoint {
  std::string label;  // "before", "after"
  double intensity = 0.0;
  double flops_per_s = 0.0;
};

// The ceilings measured on the GPU and the kernel's points under them.
struct RooflineView {
  double dram_bytes_per_s = 0.0;
  double flops_per_s = 0.0;
  std::vector<RooflinePoint> points;
};

// The best verified speedup after one evaluation of a search.
struct SearchPoint {
  int evaluation = 0;               // 1-based
  std::optional<double> elapsed_s;  // wall time since the search began, when recorded
  double best_speedup = 1.0;        // baseline time / best time
};

// A kernel's PyTorch reference timed beside it (`bench --baseline torch`), in one mode.
struct BaselineView {
  std::string mode;                // "eager", "compile"
  std::optional<double> median_s;  // when timed
  std::optional<double> speedup;   // the baseline's median over the kernel's; > 1: kernel faster
  std::string failed;              // why it was not timed; "" when it was
};

// What a report shows of one kernel of a result.
struct KernelView {
  std::string name;
  std::string base, head;                        // what each end is: "built", "baseline", …
  std::optional<Estimate> base_time, head_time;  // seconds, when the result has them
  std::optional<Estimate> ratio;                 // head time / base time; > 1: head slower
  Finding finding = Finding::skipped;
  std::string reason;
  std::vector<std::string> verification;  // lines for the details
  std::vector<std::string> path;          // optimize: the techniques from base to head
  std::optional<ProfileChange> profile;
  std::optional<RooflineView> roofline;
  std::vector<SearchPoint> search;
  std::vector<BaselineView> baselines;  // bench --baseline torch; empty otherwise
};

// The kinds of result a report reads.
enum class ResultKind { check, optimize, bench, run };

// "check", "optimize": the result's `kind`.
std::string_view result_kind_name(ResultKind kind);

// One saved result, as a report shows it.
struct ResultView {
  ResultKind kind = ResultKind::check;
  std::string origin;  // the file it was read from, or what made it
  std::string title;   // "check 75b7741..ec7d1da"
  std::vector<std::pair<std::string, std::string>> facts;  // provenance, for the details
  std::vector<KernelView> kernels;
  std::vector<std::string> notes;  // what the result says beside its kernels
  nlohmann::json value;            // the result as read
};

}  // namespace kblaster
