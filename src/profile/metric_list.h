// The raw Nsight Compute metrics our profile collection passes to
// `ncu --metrics`: everything profile_from_ncu reads, named as ncu 2025.x
// names them for sm_90 (H100/H200).
#pragma once

#include <string>
#include <vector>

namespace kblaster {

// The fixed metric list, in a stable order. ncu refuses the whole run when one
// name is unknown on the device, so every name here is checked on sm_90.
const std::vector<std::string>& profile_metric_names();

// The stall reasons of ncu's Warp State Statistics on sm_90, as the suffix of
// smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio.
const std::vector<std::string>& stall_reason_names();

// The metric carrying one stall reason: "long_scoreboard" ->
// "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio".
std::string stall_metric_name(const std::string& reason);

}  // namespace kblaster
