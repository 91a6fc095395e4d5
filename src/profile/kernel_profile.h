// One kernel's Nsight Compute profile in the domain's terms: the numbers the
// state classifier, the roofline and the profile delta read. Every metric is
// optional: a `--set full` page, our own metric list and a refused counter each
// leave different gaps, and a rule whose inputs are missing does not fire.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "profile/ncu_csv.h"

namespace kblaster {

struct KernelProfile {
  std::string name;  // the kernel's (demangled) name; "<launcher total>" for a sum
  int launches = 1;  // kernels summed into this profile

  // Time and speed of light (percent of peak, 0-100).
  std::optional<double> duration_s;         // gpu__time_duration.sum
  std::optional<double> elapsed_cycles;     // gpc__cycles_elapsed.max
  std::optional<double> sm_throughput_pct;  // sm__throughput.avg.pct_of_peak_sustained_elapsed
  std::optional<double>
      memory_throughput_pct;  // gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
  std::optional<double>
      dram_throughput_pct;  // gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed (or dram__…)
  std::optional<double> l2_throughput_pct;   // lts__throughput.avg.pct_of_peak_sustained_elapsed
  std::optional<double> l1_throughput_pct;   // l1tex__throughput.avg.pct_of_peak_sustained_active
  std::optional<double> dram_bytes_read;     // dram__bytes_read.sum (bytes)
  std::optional<double> dram_bytes_written;  // dram__bytes_write.sum (bytes)
  std::optional<double> l1_hit_rate_pct;     // l1tex__t_sector_hit_rate.pct
  std::optional<double> l2_hit_rate_pct;     // lts__t_sector_hit_rate.pct

  // Launch and occupancy.
  std::optional<double> block_size;              // launch__block_size (threads)
  std::optional<double> grid_size;               // launch__grid_size (blocks)
  std::optional<double> registers_per_thread;    // launch__registers_per_thread
  std::optional<double> shared_bytes_per_block;  // static + dynamic shared memory per block
  std::optional<double> waves_per_sm;            // launch__waves_per_multiprocessor
  std::optional<double> sm_count;  // device__attribute_multiprocessor_count / launch__sm_count
  std::optional<double> theoretical_occupancy_pct;  // sm__maximum_warps_per_active_cycle_pct
  std::optional<double>
      achieved_occupancy_pct;  // sm__warps_active.avg.pct_of_peak_sustained_active
  // Blocks per SM each resource allows (launch__occupancy_limit_*).
  std::optional<double> limit_blocks_by_registers, limit_blocks_by_shared, limit_blocks_by_warps,
      limit_blocks_by_sm;

  // Pipes and issue (percent of peak sustained active). tensor: all tensor pipes
  // (sm__pipe_tensor_cycles_active), else HMMA; xu: sm__inst_executed_pipe_xu
  // where sm__pipe_xu_cycles_active reads "n/a" (sm_90).
  std::optional<double> fma_pipe_pct, fp64_pipe_pct, tensor_pipe_pct, alu_pipe_pct, xu_pipe_pct;
  std::optional<double> issue_active_pct;  // sm__inst_issued.avg.pct_of_peak_sustained_active

  // Access quality.
  std::optional<double> global_load_sectors_per_request;  // l1tex sectors / requests, global loads
  std::optional<double> global_store_sectors_per_request;
  std::optional<double> local_sectors;               // local loads + stores (spills)
  std::optional<double> global_sectors;              // global loads + stores
  std::optional<double> shared_bank_conflict_ratio;  // bank conflicts / shared wavefronts
  std::optional<double> threads_per_instruction;     // 32 = no divergence
  std::optional<double> atomic_request_share;        // atomic + reduction L2 requests / all

  // Warp stall reasons as shares of all stall samples (0-1), keyed by ncu's
  // reason name without prefix: "long_scoreboard", "barrier", "wait", ….
  std::map<std::string, double> stall_share;
};

// The profile of one kernel from its parsed ncu record. Accepts both naming
// schemes: raw metric names (our `--metrics` list, `--page raw`) and the
// "Section: Metric Name" rows of the default details page (`--set full`).
// Values are converted to base units (seconds, bytes, percent). Never fails on
// missing metrics; an unparseable value of a known metric is a config error
// naming `origin`, the kernel and the metric.
Result<KernelProfile> profile_from_ncu(const NcuKernel& kernel, const std::string& origin);

// A launcher that starts several kernels: durations, cycles, bytes and sector
// counts add; percentages, shares and launch figures are duration-weighted means.
KernelProfile sum_profiles(const std::vector<KernelProfile>& kernels);

}  // namespace kblaster
