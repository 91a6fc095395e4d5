// How numbers read in reports: ratios, intervals, times and changes, each with
// four significant digits at most, so that goldens do not churn on noise digits.
#pragma once

#include <optional>
#include <string>

#include "report/result_view.h"

namespace kblaster {

// `v` with `digits` significant digits, and whole below 1e6: "12.37", "0.0808",
// "65536", "1.2e+07", "1e-13"; "n/a" when not finite.
std::string format_number(double v, int digits = 4);

// "12.37×"; "n/a" when not finite.
std::string format_ratio(double v);

// "12.37× (12.32–12.55)"; the bounds only when the estimate has both.
std::string format_ratio(const Estimate& e);

// `v` with an SI prefix and three significant digits: "67 T", "4.2 k", "0.5";
// "n/a" when not finite.
std::string format_si(double v);

// A time in seconds with its unit: "65.8 µs", "1.32 ms", "2.5 s".
std::string format_duration(double s);

// A profile metric's value with its unit ("65.8 %", "1317 us"); "–" when absent.
std::string format_metric(const std::optional<double>& v, const std::string& unit);

// The relative change from `before` to `after`: "+12.3%", "-4.0%"; "" when either is
// absent or `before` is zero.
std::string format_change(const std::optional<double>& before, const std::optional<double>& after);

}  // namespace kblaster
