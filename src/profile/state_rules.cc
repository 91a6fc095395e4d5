#include "profile/state_rules.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kblaster {
namespace {

using Why = std::optional<std::string>;

std::string format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}
std::string pct(double v) { return format("%.1f%%", v); }          // 91.2%
std::string share(double v) { return format("%.1f%%", 100 * v); }  // 0-1 as 45.0%

template <class... T>
bool have(const std::optional<T>&... v) {
  return (v.has_value() && ...);
}

// A stall reason's share; an absent reason counts 0 once ncu reported any.
double stall(const KernelProfile& k, const char* reason) {
  auto it = k.stall_share.find(reason);
  return it == k.stall_share.end() ? 0.0 : it->second;
}

// A signature flag that must hold when the source was read; without source
// (no kernels found) the metric alone decides.
bool source_allows(const CodeSignature& s, bool flag) { return s.kernels == 0 || flag; }

std::string roofline_note(const ClassifierInput& in) {
  if (!in.roofline) return "";
  return "; roofline: " + share(in.roofline->share_of_limit) + " of the " + in.roofline->limit +
         " limit";
}

// Launch states yield when a unit is this busy: the tail or idle SMs cost little then.
constexpr double kBusyUnitPct = 80;
bool unit_busy(const KernelProfile& k) {
  return k.sm_throughput_pct.value_or(0) >= kBusyUnitPct ||
         k.memory_throughput_pct.value_or(0) >= kBusyUnitPct;
}

// The math pipes and their thresholds. A pipe rule fires only for the pipe with
// the highest utilisation relative to its threshold, so table order among them
// does not decide.
struct Pipe {
  const char* name;
  std::optional<double> pct;
  double threshold;
};
std::vector<Pipe> pipes(const KernelProfile& k) {
  return {{"tensor", k.tensor_pipe_pct, 60},
          {"FMA", k.fma_pipe_pct, 60},
          {"FP64", k.fp64_pipe_pct, 60},
          {"ALU", k.alu_pipe_pct, 60},
          {"XU", k.xu_pipe_pct, 50}};
}
Why pipe_bound(const ClassifierInput& in, std::string_view name) {
  const std::vector<Pipe> all = pipes(in.total);
  const Pipe* best = nullptr;
  for (const Pipe& p : all)
    if (p.pct && (!best || *p.pct / p.threshold > *best->pct / best->threshold)) best = &p;
  if (!best || best->name != name || *best->pct < best->threshold) return {};
  return std::string(name) + " pipe " + pct(*best->pct) +
         " (>= " + format("%.0f%%", best->threshold) + ", the busiest pipe)";
}

Why too_small(const ClassifierInput& in) {
  const auto& d = in.total.duration_s;
  if (!d || *d >= 10e-6) return {};
  return "duration " + format("%.1f us", *d * 1e6) + " (< 10 us)";
}

Why many_small_kernels(const ClassifierInput& in) {
  const std::size_t n = in.kernels.size();
  if (n < 2) return {};
  std::vector<double> d;
  for (const auto& k : in.kernels)
    if (k.duration_s) d.push_back(*k.duration_s);
  if (d.size() == n) {
    std::sort(d.begin(), d.end());
    const double median = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
    if (median < 20e-6)
      return format("%zu kernels, median duration %.1f us (< 20 us)", n, median * 1e6);
  }
  std::string sols;
  for (const auto& k : in.kernels) {
    if (!have(k.memory_throughput_pct, k.sm_throughput_pct) || *k.memory_throughput_pct < 60 ||
        *k.memory_throughput_pct < *k.sm_throughput_pct)
      return {};
    sols += (sols.empty() ? "" : ", ") + pct(*k.memory_throughput_pct);
  }
  return format("%zu kernels, each memory-bound (memory throughput ", n) + sols +
         " >= 60% and >= SM throughput)";
}

Why grid_undersized(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (unit_busy(k)) return {};
  if (have(k.grid_size, k.sm_count) && *k.grid_size < *k.sm_count)
    return format("grid of %.0f blocks < %.0f SMs", *k.grid_size, *k.sm_count);
  if (k.waves_per_sm && *k.waves_per_sm < 0.5)
    return format("%.2f waves per SM (< 0.5)", *k.waves_per_sm);
  return {};
}

Why wave_tail(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (!k.waves_per_sm || unit_busy(k)) return {};
  const double w = *k.waves_per_sm, tail = w - std::floor(w);
  if (w < 1 || w >= 4 || tail <= 0 || tail > 0.5) return {};
  return format("%.2f waves per SM: the last wave is %.0f%% full (<= 50%%)", w, 100 * tail);
}

Why register_spills(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (!have(k.local_sectors, k.global_sectors) || *k.local_sectors <= 0) return {};
  if (*k.global_sectors > 0 && *k.local_sectors < 0.05 * *k.global_sectors) return {};
  const double ratio = *k.global_sectors > 0 ? *k.local_sectors / *k.global_sectors : 1.0;
  return format("%.0f local (spill) sectors = %.1f%% of %.0f global sectors (>= 5%%)",
                *k.local_sectors, 100 * ratio, *k.global_sectors);
}

Why uncoalesced_access(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  const CodeSignature& s = in.signature;
  // Twice what a coalesced warp request of the widest access the source uses
  // reads: 4 sectors for 4-byte, 8 for 8-byte, 16 for 16-byte; unknown width: 32.
  const double coalesced = s.kernels == 0 || s.vector_access ? 16 : s.double_precision ? 8 : 4;
  const double limit = 2 * coalesced;
  const char* which = nullptr;
  double worst = 0;
  for (auto [name, v] : {std::pair{"load", k.global_load_sectors_per_request},
                         std::pair{"store", k.global_store_sectors_per_request}})
    if (v && *v >= limit && *v > worst) which = name, worst = *v;
  if (!which) return {};
  std::string busy;
  if (k.dram_throughput_pct && *k.dram_throughput_pct >= 40)
    busy = "DRAM throughput " + pct(*k.dram_throughput_pct) + " (>= 40%)";
  else if (k.l2_throughput_pct && *k.l2_throughput_pct >= 50)
    busy = "L2 throughput " + pct(*k.l2_throughput_pct) + " (>= 50%)";
  else
    return {};
  return format("global %s %.1f sectors per request (>= %.0f; coalesced is %.0f), ", which, worst,
                limit, coalesced) +
         busy;
}

// ncu's DRAM peak is the theoretical one; a copy reaches about 87% of it on the
// H200 (4.19 of 4.8 TB/s), so 60% of ncu's peak is about 70% of what is achievable.
Why dram_saturated(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (!have(k.dram_throughput_pct)) return {};
  if (*k.dram_throughput_pct < 60) return {};
  std::string why = "DRAM throughput " + pct(*k.dram_throughput_pct) + " of ncu's peak (>= 60%)";
  if (have(k.sm_throughput_pct)) why += ", SM SOL " + pct(*k.sm_throughput_pct);
  return why + roofline_note(in);
}

Why l2_bound(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (!have(k.l2_throughput_pct, k.dram_throughput_pct)) return {};
  if (*k.l2_throughput_pct < 70 || *k.dram_throughput_pct >= 60) return {};
  return "L2 throughput " + pct(*k.l2_throughput_pct) + " (>= 70%), DRAM throughput " +
         pct(*k.dram_throughput_pct) + " (< 60%)";
}

Why shared_bank_conflicts(const ClassifierInput& in) {
  const auto& r = in.total.shared_bank_conflict_ratio;
  if (!r || *r < 0.2 || !source_allows(in.signature, in.signature.shared_memory)) return {};
  return format("%.2f shared bank conflicts per shared wavefront (>= 0.20)", *r);
}

Why l1_bound(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (!have(k.l1_throughput_pct, k.l2_throughput_pct, k.dram_throughput_pct)) return {};
  if (*k.l1_throughput_pct < 75 || *k.l2_throughput_pct >= 60 || *k.dram_throughput_pct >= 60)
    return {};
  return "L1 throughput " + pct(*k.l1_throughput_pct) + " (>= 75%), L2 " +
         pct(*k.l2_throughput_pct) + " and DRAM " + pct(*k.dram_throughput_pct) + " (< 60%)";
}

Why atomic_contention(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  const CodeSignature& s = in.signature;
  if (!source_allows(s, s.atomics)) return {};
  if (k.atomic_request_share && *k.atomic_request_share >= 0.1)
    return "atomic and reduction requests " + share(*k.atomic_request_share) +
           " of L2 requests (>= 10%)";
  if (s.atomics && !k.stall_share.empty() && stall(k, "lg_throttle") >= 0.3)
    return "lg_throttle " + share(stall(k, "lg_throttle")) +
           " of stall samples (>= 30%) in a kernel using atomics";
  return {};
}

Why tensor_pipe_bound(const ClassifierInput& in) {
  auto why = pipe_bound(in, "tensor");
  return why ? *why + roofline_note(in) : why;
}

Why tensor_cores_unused(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  const CodeSignature& s = in.signature;
  if (!s.matmul_like || s.tensor_cores || !k.sm_throughput_pct || *k.sm_throughput_pct < 40)
    return {};
  if (k.tensor_pipe_pct && *k.tensor_pipe_pct >= 5) return {};
  std::string why = "multiply-accumulate loop without Tensor Cores, SM throughput " +
                    pct(*k.sm_throughput_pct) + " (>= 40%)";
  if (k.tensor_pipe_pct) why += ", tensor pipe " + pct(*k.tensor_pipe_pct) + " (< 5%)";
  return why;
}

Why fp32_pipe_bound(const ClassifierInput& in) {
  const auto& dram = in.total.dram_throughput_pct;
  if (!dram || *dram >= 60) return {};
  auto why = pipe_bound(in, "FMA");
  return why ? *why + ", DRAM throughput " + pct(*dram) + " (< 60%)" + roofline_note(in) : why;
}

Why fp64_pipe_bound(const ClassifierInput& in) { return pipe_bound(in, "FP64"); }
Why integer_alu_bound(const ClassifierInput& in) { return pipe_bound(in, "ALU"); }
Why sfu_bound(const ClassifierInput& in) { return pipe_bound(in, "XU"); }

Why issue_bound(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (!k.issue_active_pct || *k.issue_active_pct < 80) return {};
  std::string busiest = "no pipe reported";
  double top = -1;
  for (const Pipe& p : pipes(k)) {
    if (!p.pct) continue;
    if (*p.pct >= 60) return {};
    if (*p.pct > top)
      top = *p.pct, busiest = std::string("busiest pipe ") + p.name + " " + pct(top);
  }
  return "issue active " + pct(*k.issue_active_pct) + " (>= 80%), " + busiest + " (< 60%)";
}

// "achieved occupancy 25.0% (< 40%), binding limit: registers at 2 blocks per SM"
// when `limit` is the smallest of the reported occupancy limits; else nullopt.
Why occupancy_bound_by(const KernelProfile& k, const std::optional<double>& limit,
                       const char* resource) {
  if (!have(k.achieved_occupancy_pct, limit) || *k.achieved_occupancy_pct >= 40) return {};
  for (const auto* other : {&k.limit_blocks_by_registers, &k.limit_blocks_by_shared,
                            &k.limit_blocks_by_warps, &k.limit_blocks_by_sm})
    if (*other && **other < *limit) return {};
  return "achieved occupancy " + pct(*k.achieved_occupancy_pct) +
         " (< 40%), binding limit: " + resource + format(" at %.0f blocks per SM", *limit);
}

Why low_occupancy_registers(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (!k.registers_per_thread || *k.registers_per_thread < 64) return {};
  auto why = occupancy_bound_by(k, k.limit_blocks_by_registers, "registers");
  return why ? *why + format(", %.0f registers per thread (>= 64)", *k.registers_per_thread) : why;
}

Why low_occupancy_shared_memory(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  auto why = occupancy_bound_by(k, k.limit_blocks_by_shared, "shared memory");
  if (why && k.shared_bytes_per_block)
    *why += format(", %.0f bytes of shared memory per block", *k.shared_bytes_per_block);
  return why;
}

Why low_occupancy_block_limit(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (!k.block_size || *k.block_size > 64) return {};
  auto why = occupancy_bound_by(k, k.limit_blocks_by_sm, "the per-SM block limit");
  return why ? *why + format(", %.0f threads per block (<= 64)", *k.block_size) : why;
}

Why memory_dependency_stalls(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (k.stall_share.empty() || !have(k.dram_throughput_pct, k.l2_throughput_pct)) return {};
  const double ls = stall(k, "long_scoreboard");
  if (ls < 0.4 || *k.dram_throughput_pct >= 60 || *k.l2_throughput_pct >= 70) return {};
  return "long_scoreboard " + share(ls) + " of stall samples (>= 40%), DRAM " +
         pct(*k.dram_throughput_pct) + " (< 60%) and L2 " + pct(*k.l2_throughput_pct) + " (< 70%)";
}

Why execution_dependency_stalls(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (k.stall_share.empty() || !k.issue_active_pct) return {};
  const double w = stall(k, "wait") + stall(k, "short_scoreboard");
  if (w < 0.4 || *k.issue_active_pct >= 60) return {};
  return "wait + short_scoreboard " + share(w) + " of stall samples (>= 40%), issue active " +
         pct(*k.issue_active_pct) + " (< 60%)";
}

Why barrier_stalls(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (k.stall_share.empty() || stall(k, "barrier") < 0.25) return {};
  return "barrier " + share(stall(k, "barrier")) + " of stall samples (>= 25%)";
}

Why warp_divergence(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  if (k.threads_per_instruction && *k.threads_per_instruction < 24)
    return format("%.1f active threads per instruction (< 24 of 32)", *k.threads_per_instruction);
  if (!k.stall_share.empty() && stall(k, "branch_resolving") >= 0.1)
    return "branch_resolving " + share(stall(k, "branch_resolving")) + " of stall samples (>= 10%)";
  return {};
}

Why no_dominant_bottleneck(const ClassifierInput& in) {
  const KernelProfile& k = in.total;
  std::string why = "no rule matched";
  if (k.sm_throughput_pct) why += ", SM SOL " + pct(*k.sm_throughput_pct);
  if (k.memory_throughput_pct) why += ", memory SOL " + pct(*k.memory_throughput_pct);
  why += roofline_note(in);
  const auto missing = missing_inputs(k);
  if (!missing.empty()) {
    why += "; missing inputs:";
    for (const auto& m : missing) why += " " + m;
  }
  return why;
}

}  // namespace

const std::vector<StateRule>& state_rules() {
  static const std::vector<StateRule> rules = {
      {"launch.too_small", "duration_s < 10 us (launcher total)", too_small},
      {"launch.many_small_kernels",
       "kernels >= 2 and (median kernel duration_s < 20 us or every kernel has "
       "memory_throughput_pct >= 60 and >= sm_throughput_pct)",
       many_small_kernels},
      {"launch.grid_undersized", "(grid_size < sm_count or waves_per_sm < 0.5) and no SOL >= 80%",
       grid_undersized},
      {"launch.wave_tail", "1 <= waves_per_sm < 4, fractional part in (0, 0.5], and no SOL >= 80%",
       wave_tail},
      {"memory.register_spills", "local_sectors > 0 and local_sectors >= 5% of global_sectors",
       register_spills},
      {"memory.uncoalesced_access",
       "global load or store sectors per request >= 2x a coalesced request (8 for 4-byte, 16 for "
       "8-byte, 32 for 16-byte or unknown width) and (dram_throughput_pct >= 40 or "
       "l2_throughput_pct >= 50)",
       uncoalesced_access},
      {"memory.dram_saturated", "dram_throughput_pct >= 60 (of ncu's theoretical peak)",
       dram_saturated},
      {"memory.l2_bound", "l2_throughput_pct >= 70 and dram_throughput_pct < 60", l2_bound},
      {"memory.shared_bank_conflicts",
       "shared_bank_conflict_ratio >= 0.2 (and signature.shared_memory when source is known)",
       shared_bank_conflicts},
      {"memory.l1_bound",
       "l1_throughput_pct >= 75, l2_throughput_pct < 60 and dram_throughput_pct < 60", l1_bound},
      {"memory.atomic_contention",
       "atomic_request_share >= 0.1 (and signature.atomics when source is known), or "
       "signature.atomics and stall lg_throttle >= 0.3",
       atomic_contention},
      {"compute.tensor_pipe_bound", "tensor_pipe_pct >= 60, the busiest pipe", tensor_pipe_bound},
      {"compute.tensor_cores_unused",
       "signature.matmul_like, not signature.tensor_cores, sm_throughput_pct >= 40 and "
       "tensor_pipe_pct < 5 when reported",
       tensor_cores_unused},
      {"compute.fp32_pipe_bound", "fma_pipe_pct >= 60, the busiest pipe, dram_throughput_pct < 60",
       fp32_pipe_bound},
      {"compute.fp64_pipe_bound", "fp64_pipe_pct >= 60, the busiest pipe", fp64_pipe_bound},
      {"compute.integer_alu_bound", "alu_pipe_pct >= 60, the busiest pipe", integer_alu_bound},
      {"compute.sfu_bound", "xu_pipe_pct >= 50, the busiest pipe", sfu_bound},
      {"compute.issue_bound", "issue_active_pct >= 80 and every reported pipe < 60", issue_bound},
      {"latency.low_occupancy_registers",
       "achieved_occupancy_pct < 40, limit_blocks_by_registers is the smallest limit, "
       "registers_per_thread >= 64",
       low_occupancy_registers},
      {"latency.low_occupancy_shared_memory",
       "achieved_occupancy_pct < 40, limit_blocks_by_shared is the smallest limit",
       low_occupancy_shared_memory},
      {"latency.low_occupancy_block_limit",
       "achieved_occupancy_pct < 40, limit_blocks_by_sm is the smallest limit, block_size <= 64",
       low_occupancy_block_limit},
      {"latency.memory_dependency_stalls",
       "stall long_scoreboard >= 0.4, dram_throughput_pct < 60 and l2_throughput_pct < 70",
       memory_dependency_stalls},
      {"latency.execution_dependency_stalls",
       "stall wait + short_scoreboard >= 0.4 and issue_active_pct < 60",
       execution_dependency_stalls},
      {"latency.barrier_stalls", "stall barrier >= 0.25", barrier_stalls},
      {"compute.warp_divergence", "threads_per_instruction < 24 or stall branch_resolving >= 0.1",
       warp_divergence},
      {"latency.no_dominant_bottleneck", "always (the fallback)", no_dominant_bottleneck},
  };
  return rules;
}

std::vector<std::string> missing_inputs(const KernelProfile& k) {
  const std::pair<const char*, bool> inputs[] = {
      {"duration_s", k.duration_s.has_value()},
      {"sm_throughput_pct", k.sm_throughput_pct.has_value()},
      {"memory_throughput_pct", k.memory_throughput_pct.has_value()},
      {"dram_throughput_pct", k.dram_throughput_pct.has_value()},
      {"l2_throughput_pct", k.l2_throughput_pct.has_value()},
      {"l1_throughput_pct", k.l1_throughput_pct.has_value()},
      {"block_size", k.block_size.has_value()},
      {"grid_size", k.grid_size.has_value()},
      {"registers_per_thread", k.registers_per_thread.has_value()},
      {"waves_per_sm", k.waves_per_sm.has_value()},
      {"sm_count", k.sm_count.has_value()},
      {"achieved_occupancy_pct", k.achieved_occupancy_pct.has_value()},
      {"limit_blocks_by_registers", k.limit_blocks_by_registers.has_value()},
      {"limit_blocks_by_shared", k.limit_blocks_by_shared.has_value()},
      {"limit_blocks_by_warps", k.limit_blocks_by_warps.has_value()},
      {"limit_blocks_by_sm", k.limit_blocks_by_sm.has_value()},
      {"fma_pipe_pct", k.fma_pipe_pct.has_value()},
      {"fp64_pipe_pct", k.fp64_pipe_pct.has_value()},
      {"tensor_pipe_pct", k.tensor_pipe_pct.has_value()},
      {"alu_pipe_pct", k.alu_pipe_pct.has_value()},
      {"xu_pipe_pct", k.xu_pipe_pct.has_value()},
      {"issue_active_pct", k.issue_active_pct.has_value()},
      {"global_load_sectors_per_request", k.global_load_sectors_per_request.has_value()},
      {"global_store_sectors_per_request", k.global_store_sectors_per_request.has_value()},
      {"local_sectors", k.local_sectors.has_value()},
      {"global_sectors", k.global_sectors.has_value()},
      {"shared_bank_conflict_ratio", k.shared_bank_conflict_ratio.has_value()},
      {"threads_per_instruction", k.threads_per_instruction.has_value()},
      {"atomic_request_share", k.atomic_request_share.has_value()},
      {"stall_share", !k.stall_share.empty()},
  };
  std::vector<std::string> missing;
  for (const auto& [name, present] : inputs)
    if (!present) missing.push_back(name);
  return missing;
}

}  // namespace kblaster
