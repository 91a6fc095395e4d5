#include "gpu/verdict_reason.h"

#include <array>
#include <utility>

namespace kblaster {
namespace {

constexpr std::array<std::pair<VerdictReason, const char*>, 14> kNames = {{
    {VerdictReason::passed, "passed"},
    {VerdictReason::launch_error, "launch_error"},
    {VerdictReason::output_unwritten, "output_unwritten"},
    {VerdictReason::wrong_result, "wrong_result"},
    {VerdictReason::nonfinite, "nonfinite"},
    {VerdictReason::input_mutated, "input_mutated"},
    {VerdictReason::work_outside_stream, "work_outside_stream"},
    {VerdictReason::output_cached, "output_cached"},
    {VerdictReason::launcher_synchronizes, "launcher_synchronizes"},
    {VerdictReason::out_of_bounds_write, "out_of_bounds_write"},
    {VerdictReason::timeout, "timeout"},
    {VerdictReason::crashed, "crashed"},
    {VerdictReason::bad_response, "bad_response"},
    {VerdictReason::not_rechecked, "not_rechecked"},
}};

}  // namespace

const char* verdict_reason_name(VerdictReason r) {
  for (const auto& [reason, name] : kNames)
    if (reason == r) return name;
  return "unknown";
}

VerdictReason parse_verdict_reason(std::string_view name) {
  for (const auto& [reason, known] : kNames)
    if (name == known) return reason;
  return VerdictReason::unknown;
}

bool ends_the_harness(VerdictReason r) {
  return r == VerdictReason::timeout || r == VerdictReason::crashed ||
         r == VerdictReason::bad_response;
}

}  // namespace kblaster
