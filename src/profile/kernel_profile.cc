#include "profile/kernel_profile.h"

#include <string_view>

namespace kblaster {
namespace {

using Field = std::optional<double> KernelProfile::*;

// The factor from a unit as ncu prints it to its base unit: "usecond" and "us"
// -> 1e-6, "Kbyte" -> 1e3 (ncu's multiples are 1000s), "Mbyte/s" -> 1e6. Only
// the part before "/" scales; "%", "cycle", "SM" and unknown units are 1.
double unit_scale(std::string_view unit) {
  unit = unit.substr(0, unit.find('/'));
  if (unit == "ns" || unit == "nsecond") return 1e-9;
  if (unit == "us" || unit == "usecond") return 1e-6;
  if (unit == "ms" || unit == "msecond") return 1e-3;
  if (unit.size() < 2 || unit[1] < 'a' || unit[1] > 'z') return 1.0;
  switch (unit[0]) {
    case 'K':
      return 1e3;
    case 'M':
      return 1e6;
    case 'G':
      return 1e9;
    case 'T':
      return 1e12;
    default:
      return 1.0;
  }
}

// Looks metrics up under any of their names, in base units. The first name
// holding a number wins; "n/a" and absent names read as missing. A value that
// is neither a number nor "n/a" is remembered as the first error.
class MetricReader {
 public:
  MetricReader(const NcuKernel& kernel, const std::string& origin)
      : kernel_(kernel), origin_(origin) {}

  std::optional<double> get(std::initializer_list<std::string_view> names) {
    for (std::string_view name : names) {
      auto it = kernel_.metrics.find(std::string(name));
      if (it == kernel_.metrics.end()) continue;
      const NcuValue& v = it->second;
      if (v.number) return *v.number * unit_scale(v.unit);
      if (!v.text.empty() && v.text != "n/a" && v.text != "N/A" && !error_)
        error_ = Error::config(origin_, "kernel '" + kernel_.name + "' (ID " + kernel_.id +
                                            "): metric '" + std::string(name) + "' has value '" +
                                            v.text + "', not a number");
    }
    return std::nullopt;
  }
  const std::optional<Error>& error() const { return error_; }

 private:
  const NcuKernel& kernel_;
  const std::string& origin_;
  std::optional<Error> error_;
};

std::optional<double> ratio(std::optional<double> num, std::optional<double> den) {
  if (!num || !den || *den <= 0.0) return std::nullopt;
  return *num / *den;
}

std::optional<double> sum(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return std::nullopt;
  return *a + *b;
}

// Stall shares from the first family of per-reason metrics the record holds:
// ncu's Warp State Statistics (our metric list), else PC sampling counts.
std::map<std::string, double> stall_shares(const NcuKernel& kernel) {
  const std::pair<std::string_view, std::string_view> families[] = {
      {"smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"},
      {"smsp__pcsamp_warps_issue_stalled_", ""}};
  for (const auto& [prefix, suffix] : families) {
    std::map<std::string, double> share;
    double total = 0.0;
    for (const auto& [name, value] : kernel.metrics) {
      std::string_view n = name;
      if (!n.starts_with(prefix) || !n.ends_with(suffix) || !value.number) continue;
      n = n.substr(prefix.size(), n.size() - prefix.size() - suffix.size());
      // "selected" is the issuing state, not a stall; *_not_issued are sub-counts.
      if (n == "selected" || n.ends_with("_not_issued") || n.find('.') != n.npos) continue;
      share[std::string(n)] = *value.number;
      total += *value.number;
    }
    if (total <= 0.0) continue;
    for (auto& [reason, v] : share) v /= total;
    return share;
  }
  return {};
}

// Fields that add across a launcher's kernels; every other optional is a mean.
constexpr Field kAdditive[] = {&KernelProfile::duration_s,      &KernelProfile::elapsed_cycles,
                               &KernelProfile::dram_bytes_read, &KernelProfile::dram_bytes_written,
                               &KernelProfile::local_sectors,   &KernelProfile::global_sectors};

constexpr Field kMean[] = {&KernelProfile::sm_throughput_pct,
                           &KernelProfile::memory_throughput_pct,
                           &KernelProfile::dram_throughput_pct,
                           &KernelProfile::l2_throughput_pct,
                           &KernelProfile::l1_throughput_pct,
                           &KernelProfile::l1_hit_rate_pct,
                           &KernelProfile::l2_hit_rate_pct,
                           &KernelProfile::block_size,
                           &KernelProfile::grid_size,
                           &KernelProfile::registers_per_thread,
                           &KernelProfile::shared_bytes_per_block,
                           &KernelProfile::waves_per_sm,
                           &KernelProfile::sm_count,
                           &KernelProfile::theoretical_occupancy_pct,
                           &KernelProfile::achieved_occupancy_pct,
                           &KernelProfile::limit_blocks_by_registers,
                           &KernelProfile::limit_blocks_by_shared,
                           &KernelProfile::limit_blocks_by_warps,
                           &KernelProfile::limit_blocks_by_sm,
                           &KernelProfile::fma_pipe_pct,
                           &KernelProfile::fp64_pipe_pct,
                           &KernelProfile::tensor_pipe_pct,
                           &KernelProfile::alu_pipe_pct,
                           &KernelProfile::xu_pipe_pct,
                           &KernelProfile::issue_active_pct,
                           &KernelProfile::global_load_sectors_per_request,
                           &KernelProfile::global_store_sectors_per_request,
                           &KernelProfile::shared_bank_conflict_ratio,
                           &KernelProfile::threads_per_instruction,
                           &KernelProfile::atomic_request_share};

}  // namespace

Result<KernelProfile> profile_from_ncu(const NcuKernel& kernel, const std::string& origin) {
  const std::string sol = "GPU Speed Of Light Throughput: ";
  const std::string launch = "Launch Statistics: ", occ = "Occupancy: ";
  const std::string mem = "Memory Workload Analysis: ";
  MetricReader m(kernel, origin);
  KernelProfile p;
  p.name = kernel.name;

  p.duration_s = m.get({"gpu__time_duration.sum", sol + "Duration"});
  p.elapsed_cycles = m.get({"gpc__cycles_elapsed.max", sol + "Elapsed Cycles"});
  p.sm_throughput_pct =
      m.get({"sm__throughput.avg.pct_of_peak_sustained_elapsed", sol + "Compute (SM) Throughput"});
  p.memory_throughput_pct =
      m.get({"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
             sol + "Memory Throughput"});
  p.dram_throughput_pct =
      m.get({"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
             "dram__throughput.avg.pct_of_peak_sustained_elapsed", sol + "DRAM Throughput"});
  p.l2_throughput_pct =
      m.get({"lts__throughput.avg.pct_of_peak_sustained_elapsed", sol + "L2 Cache Throughput"});
  p.l1_throughput_pct = m.get({"l1tex__throughput.avg.pct_of_peak_sustained_active",
                               "l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
                               sol + "L1/TEX Cache Throughput"});
  p.dram_bytes_read = m.get({"dram__bytes_read.sum"});
  p.dram_bytes_written = m.get({"dram__bytes_write.sum"});
  p.l1_hit_rate_pct = m.get({"l1tex__t_sector_hit_rate.pct", mem + "L1/TEX Hit Rate"});
  p.l2_hit_rate_pct = m.get({"lts__t_sector_hit_rate.pct", mem + "L2 Hit Rate"});

  p.block_size = m.get({"launch__block_size", launch + "Block Size"});
  p.grid_size = m.get({"launch__grid_size", launch + "Grid Size"});
  p.registers_per_thread = m.get({"launch__registers_per_thread", launch + "Registers Per Thread"});
  p.shared_bytes_per_block = sum(
      m.get({"launch__shared_mem_per_block_static", launch + "Static Shared Memory Per Block"}),
      m.get({"launch__shared_mem_per_block_dynamic", launch + "Dynamic Shared Memory Per Block"}));
  p.waves_per_sm = m.get({"launch__waves_per_multiprocessor", launch + "Waves Per SM"});
  p.sm_count =
      m.get({"launch__sm_count", "device__attribute_multiprocessor_count", launch + "# SMs"});
  p.theoretical_occupancy_pct =
      m.get({"sm__maximum_warps_per_active_cycle_pct", occ + "Theoretical Occupancy"});
  p.achieved_occupancy_pct =
      m.get({"sm__warps_active.avg.pct_of_peak_sustained_active", occ + "Achieved Occupancy"});
  p.limit_blocks_by_registers =
      m.get({"launch__occupancy_limit_registers", occ + "Block Limit Registers"});
  p.limit_blocks_by_shared =
      m.get({"launch__occupancy_limit_shared_mem", occ + "Block Limit Shared Mem"});
  p.limit_blocks_by_warps = m.get({"launch__occupancy_limit_warps", occ + "Block Limit Warps"});
  p.limit_blocks_by_sm = m.get({"launch__occupancy_limit_blocks", occ + "Block Limit SM"});

  p.fma_pipe_pct = m.get({"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"});
  p.fp64_pipe_pct = m.get({"sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active"});
  p.tensor_pipe_pct =
      m.get({"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
             "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"});
  p.alu_pipe_pct = m.get({"sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active"});
  p.xu_pipe_pct = m.get({"sm__pipe_xu_cycles_active.avg.pct_of_peak_sustained_active",
                         "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"});
  p.issue_active_pct = m.get({"sm__inst_issued.avg.pct_of_peak_sustained_active"});

  const std::string lsu = "l1tex__t_sectors_pipe_lsu_mem_", req = "l1tex__t_requests_pipe_lsu_mem_";
  auto ld_sectors = m.get({lsu + "global_op_ld.sum"}),
       st_sectors = m.get({lsu + "global_op_st.sum"});
  p.global_load_sectors_per_request = ratio(ld_sectors, m.get({req + "global_op_ld.sum"}));
  p.global_store_sectors_per_request = ratio(st_sectors, m.get({req + "global_op_st.sum"}));
  p.global_sectors = sum(ld_sectors, st_sectors);
  p.local_sectors = sum(m.get({lsu + "local_op_ld.sum"}), m.get({lsu + "local_op_st.sum"}));
  p.shared_bank_conflict_ratio =
      ratio(m.get({"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"}),
            m.get({"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"}));
  p.threads_per_instruction = m.get({"smsp__thread_inst_executed_per_inst_executed.ratio",
                                     "Warp State Statistics: Avg. Active Threads Per Warp"});
  p.atomic_request_share =
      ratio(sum(m.get({"lts__t_requests_op_atom.sum"}), m.get({"lts__t_requests_op_red.sum"})),
            m.get({"lts__t_requests.sum"}));
  p.stall_share = stall_shares(kernel);

  if (m.error()) return *m.error();
  return p;
}

// An additive field is set only when every kernel has it: a partial sum would
// understate. A mean is over the kernels that have the field, weighted by
// duration when all of them have one, else equally.
KernelProfile sum_profiles(const std::vector<KernelProfile>& kernels) {
  KernelProfile total;
  total.name = "<launcher total>";
  total.launches = 0;
  bool timed = true;
  for (const KernelProfile& k : kernels) {
    total.launches += k.launches;
    timed = timed && k.duration_s && *k.duration_s > 0.0;
  }
  auto weight = [&](const KernelProfile& k) { return timed ? *k.duration_s : 1.0; };

  for (Field f : kAdditive) {
    double acc = 0.0;
    bool all = !kernels.empty();
    for (const KernelProfile& k : kernels) {
      all = all && (k.*f).has_value();
      if (k.*f) acc += *(k.*f);
    }
    if (all) total.*f = acc;
  }
  for (Field f : kMean) {
    double acc = 0.0, weights = 0.0;
    for (const KernelProfile& k : kernels) {
      if (!(k.*f)) continue;
      acc += weight(k) * *(k.*f);
      weights += weight(k);
    }
    if (weights > 0.0) total.*f = acc / weights;
  }
  double stall_weights = 0.0;
  for (const KernelProfile& k : kernels) {
    if (k.stall_share.empty()) continue;
    stall_weights += weight(k);
    for (const auto& [reason, share] : k.stall_share)
      total.stall_share[reason] += weight(k) * share;
  }
  for (auto& [reason, share] : total.stall_share) share /= stall_weights;
  return total;
}

}  // namespace kblaster
