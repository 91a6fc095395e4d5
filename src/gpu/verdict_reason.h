// Why a verification or recheck verdict came out as it did, as an enum with the stable
// names of docs/harness-protocol.md: the harness's own reasons, the three the parent
// gives when the harness ended, and the one for an output that was never rechecked.
#pragma once

#include <string_view>

namespace kblaster {

enum class VerdictReason {
  passed,
  launch_error,
  output_unwritten,
  wrong_result,
  nonfinite,
  input_mutated,
  work_outside_stream,
  output_cached,
  launcher_synchronizes,
  out_of_bounds_write,
  timeout,        // the parent's: no answer in time, the harness was killed
  crashed,        // the parent's: the harness died
  bad_response,   // the parent's: the answer was not protocol JSON
  not_rechecked,  // the parent's: the harness ended before this output was rechecked
  unknown,        // a name none of the above has
};

// The stable name: "passed", "wrong_result", "out_of_bounds_write", "timeout", …
const char* verdict_reason_name(VerdictReason r);

// The reason `name` names; VerdictReason::unknown for any other text.
VerdictReason parse_verdict_reason(std::string_view name);

// Whether the harness ended with this verdict (timeout, crashed, bad_response): nothing
// was checked, and the next request starts a new harness.
bool ends_the_harness(VerdictReason r);

}  // namespace kblaster
