#include "profile/metric_list.h"

namespace kblaster {

const std::vector<std::string>& stall_reason_names() {
  // "selected" is the cycle a warp issues; it is a warp state, not a stall.
  static const std::vector<std::string> reasons = {
      "barrier",
      "branch_resolving",
      "dispatch_stall",
      "drain",
      "gmma",
      "imc_miss",
      "lg_throttle",
      "long_scoreboard",
      "math_pipe_throttle",
      "membar",
      "mio_throttle",
      "misc",
      "no_instruction",
      "not_selected",
      "short_scoreboard",
      "sleeping",
      "tex_throttle",
      "wait",
  };
  return reasons;
}

std::string stall_metric_name(const std::string& reason) {
  return "smsp__average_warps_issue_stalled_" + reason + "_per_issue_active.ratio";
}

const std::vector<std::string>& profile_metric_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = {
        // Time and speed of light.
        "gpu__time_duration.sum",
        "gpc__cycles_elapsed.max",
        "sm__throughput.avg.pct_of_peak_sustained_elapsed",
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
        "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
        "lts__throughput.avg.pct_of_peak_sustained_elapsed",
        "l1tex__throughput.avg.pct_of_peak_sustained_active",
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        "l1tex__t_sector_hit_rate.pct",
        "lts__t_sector_hit_rate.pct",
        // Launch and occupancy.
        "launch__block_size",
        "launch__grid_size",
        "launch__registers_per_thread",
        "launch__shared_mem_per_block_static",
        "launch__shared_mem_per_block_dynamic",
        "launch__waves_per_multiprocessor",
        "launch__sm_count",
        "sm__maximum_warps_per_active_cycle_pct",
        "sm__warps_active.avg.pct_of_peak_sustained_active",
        "launch__occupancy_limit_registers",
        "launch__occupancy_limit_shared_mem",
        "launch__occupancy_limit_warps",
        "launch__occupancy_limit_blocks",
        // Pipes and issue.
        "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
        "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active",
        "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
        // All tensor pipes (ncu's "Tensor (All)"); the gmma cycles metric
        // exists on sm_90 but reads "n/a".
        "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
        "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active",
        // sm__pipe_xu_cycles_active reads "n/a" on sm_90; ncu's own section
        // measures XU by instructions executed.
        "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active",
        "sm__inst_issued.avg.pct_of_peak_sustained_active",
        // Access quality.
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
        "smsp__thread_inst_executed_per_inst_executed.ratio",
        "lts__t_requests_op_atom.sum",
        "lts__t_requests_op_red.sum",
        "lts__t_requests.sum",
    };
    for (const std::string& reason : stall_reason_names()) n.push_back(stall_metric_name(reason));
    return n;
  }();
  return names;
}

}  // namespace kblaster
