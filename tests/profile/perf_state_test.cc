#include "profile/perf_state.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "profile/state_rules.h"

namespace kblaster {
namespace {

// A 100 us kernel with every metric reported and nothing near a limit: the
// fallback with nothing missing. Each case below changes a few numbers.
KernelProfile quiet() {
  KernelProfile k;
  k.name = "quiet";
  k.duration_s = 100e-6;
  k.sm_throughput_pct = 30, k.memory_throughput_pct = 30, k.dram_throughput_pct = 20;
  k.l2_throughput_pct = 20, k.l1_throughput_pct = 20;
  k.block_size = 256, k.grid_size = 1320, k.registers_per_thread = 32, k.waves_per_sm = 10;
  k.sm_count = 132, k.achieved_occupancy_pct = 60, k.shared_bytes_per_block = 0;
  k.limit_blocks_by_registers = 8, k.limit_blocks_by_shared = 32, k.limit_blocks_by_warps = 8;
  k.limit_blocks_by_sm = 32;
  k.fma_pipe_pct = 10, k.fp64_pipe_pct = 0, k.tensor_pipe_pct = 0, k.alu_pipe_pct = 10;
  k.xu_pipe_pct = 5, k.issue_active_pct = 30;
  k.global_load_sectors_per_request = 4, k.global_store_sectors_per_request = 4;
  k.local_sectors = 0, k.global_sectors = 1e6, k.shared_bank_conflict_ratio = 0;
  k.threads_per_instruction = 32, k.atomic_request_share = 0;
  k.stall_share = {{"long_scoreboard", 0.2}, {"wait", 0.1},        {"short_scoreboard", 0.05},
                   {"barrier", 0.05},        {"lg_throttle", 0.0}, {"branch_resolving", 0.01}};
  return k;
}

CodeSignature scalar_source() {
  CodeSignature s;
  s.kernels = 1;
  return s;
}

ClassifierInput input_of(const KernelProfile& k, const CodeSignature& s = scalar_source()) {
  return {{k}, k, s, std::nullopt};
}

struct Case {
  const char* key;
  const char* cited;  // a number the explanation must quote
  std::function<void(ClassifierInput&)> change;
};

// Changes the single kernel (total and kernels[0]) by `f`.
std::function<void(ClassifierInput&)> kernel(std::function<void(KernelProfile&)> f) {
  return [f](ClassifierInput& in) {
    f(in.total);
    in.kernels = {in.total};
  };
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"launch.too_small", "4.2", kernel([](auto& k) { k.duration_s = 4.2e-6; })},
      {"launch.many_small_kernels", "15.0",
       [](auto& in) {
         KernelProfile k = quiet();
         k.duration_s = 15e-6;
         in.kernels = {k, k, k};
         in.total.duration_s = 45e-6;
       }},
      {"launch.grid_undersized", "66",
       kernel([](auto& k) { k.grid_size = 66, k.waves_per_sm = 0.25; })},
      {"launch.wave_tail", "1.25", kernel([](auto& k) { k.waves_per_sm = 1.25; })},
      {"memory.register_spills", "8.0%", kernel([](auto& k) { k.local_sectors = 80000; })},
      {"memory.uncoalesced_access", "16.0",
       kernel([](auto& k) { k.global_load_sectors_per_request = 16, k.dram_throughput_pct = 85; })},
      {"memory.dram_saturated", "91.2", kernel([](auto& k) {
         k.dram_throughput_pct = 91.2, k.memory_throughput_pct = 91.5, k.sm_throughput_pct = 23;
       })},
      {"memory.l2_bound", "82.5", kernel([](auto& k) { k.l2_throughput_pct = 82.5; })},
      {"memory.shared_bank_conflicts", "0.35",
       [](auto& in) {
         in.total.shared_bank_conflict_ratio = 0.35, in.signature.shared_memory = true;
         in.kernels = {in.total};
       }},
      {"memory.l1_bound", "80.5", kernel([](auto& k) { k.l1_throughput_pct = 80.5; })},
      {"memory.atomic_contention", "25.0%",
       [](auto& in) {
         in.total.atomic_request_share = 0.25, in.signature.atomics = true;
         in.kernels = {in.total};
       }},
      {"compute.tensor_pipe_bound", "72.5", kernel([](auto& k) { k.tensor_pipe_pct = 72.5; })},
      {"compute.tensor_cores_unused", "65.5",
       [](auto& in) {
         in.total.sm_throughput_pct = 65.5, in.total.fma_pipe_pct = 55;
         in.signature.matmul_like = true;
         in.kernels = {in.total};
       }},
      {"compute.fp32_pipe_bound", "78.5", kernel([](auto& k) { k.fma_pipe_pct = 78.5; })},
      {"compute.fp64_pipe_bound", "66.5", kernel([](auto& k) { k.fp64_pipe_pct = 66.5; })},
      {"compute.integer_alu_bound", "71.5", kernel([](auto& k) { k.alu_pipe_pct = 71.5; })},
      {"compute.sfu_bound", "55.5", kernel([](auto& k) { k.xu_pipe_pct = 55.5; })},
      {"compute.issue_bound", "88.5", kernel([](auto& k) { k.issue_active_pct = 88.5; })},
      {"latency.low_occupancy_registers", "128", kernel([](auto& k) {
         k.achieved_occupancy_pct = 25.5, k.limit_blocks_by_registers = 2;
         k.registers_per_thread = 128;
       })},
      {"latency.low_occupancy_shared_memory", "22.5", kernel([](auto& k) {
         k.achieved_occupancy_pct = 22.5, k.limit_blocks_by_shared = 1;
         k.shared_bytes_per_block = 96 * 1024;
       })},
      {"latency.low_occupancy_block_limit", "30.5", kernel([](auto& k) {
         k.achieved_occupancy_pct = 30.5, k.block_size = 32, k.limit_blocks_by_sm = 16;
         k.limit_blocks_by_warps = 64, k.limit_blocks_by_registers = 64;
       })},
      {"latency.memory_dependency_stalls", "45.0%",
       kernel([](auto& k) { k.stall_share["long_scoreboard"] = 0.45; })},
      {"latency.execution_dependency_stalls", "45.0%", kernel([](auto& k) {
         k.stall_share["wait"] = 0.3, k.stall_share["short_scoreboard"] = 0.15;
       })},
      {"latency.barrier_stalls", "35.0%", kernel([](auto& k) { k.stall_share["barrier"] = 0.35; })},
      {"compute.warp_divergence", "14.5",
       kernel([](auto& k) { k.threads_per_instruction = 14.5; })},
      {"latency.no_dominant_bottleneck", "30.0", [](auto&) {}},
  };
  return all;
}

TEST(Classify, EveryStateHasASyntheticProfileThatYieldsItCitingItsNumbers) {
  std::set<std::string> covered;
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.key);
    ClassifierInput in = input_of(quiet());
    c.change(in);
    const PerfState s = classify(in);
    EXPECT_EQ(s.key, c.key) << s.explanation;
    EXPECT_EQ(s.bottleneck, std::string(c.key).substr(0, std::string(c.key).find('.')));
    EXPECT_NE(s.explanation.find(c.cited), std::string::npos) << s.explanation;
    EXPECT_TRUE(s.features.empty());  // the caller fills them from the signature
    covered.insert(c.key);
  }
  for (const StateRule& rule : state_rules())
    EXPECT_TRUE(covered.count(std::string(rule.key))) << rule.key;
}

TEST(Classify, QuietProfileFallsBackWithNothingMissing) {
  const PerfState s = classify(input_of(quiet()));
  EXPECT_EQ(s.key, "latency.no_dominant_bottleneck");
  EXPECT_EQ(s.explanation.find("missing"), std::string::npos) << s.explanation;
}

TEST(Classify, DramSaturatedCitesTheRooflineShare) {
  KernelProfile k = quiet();
  k.dram_throughput_pct = 91.2, k.memory_throughput_pct = 91.5, k.sm_throughput_pct = 23;
  ClassifierInput in = input_of(k);
  in.roofline = RooflinePosition{5e-4, 5e-4, 0, 0.87, "memory", 0};
  const PerfState s = classify(in);
  EXPECT_EQ(s.key, "memory.dram_saturated");
  EXPECT_NE(s.explanation.find("87.0% of the memory limit"), std::string::npos) << s.explanation;
}

ClassifierInput streaming(double sectors_per_request, const CodeSignature& s = scalar_source()) {
  KernelProfile k = quiet();
  k.dram_throughput_pct = 91.2, k.memory_throughput_pct = 91.5, k.sm_throughput_pct = 23;
  k.global_load_sectors_per_request = sectors_per_request;
  return input_of(k, s);
}

TEST(Precedence, StridedScalarLoadsAreUncoalescedEvenAtHighDramThroughput) {
  EXPECT_EQ(classify(streaming(8)).key, "memory.uncoalesced_access");
  EXPECT_EQ(classify(streaming(4)).key, "memory.dram_saturated");
}

TEST(Precedence, CoalescedWideLoadsAreNotUncoalesced) {
  CodeSignature vec = scalar_source();
  vec.vector_access = true;
  EXPECT_EQ(classify(streaming(16, vec)).key, "memory.dram_saturated");
  EXPECT_EQ(classify(streaming(32, vec)).key, "memory.uncoalesced_access");
  CodeSignature fp64 = scalar_source();
  fp64.double_precision = true;
  EXPECT_EQ(classify(streaming(8, fp64)).key, "memory.dram_saturated");
  // Without source the width is unknown: only fully scattered requests count.
  EXPECT_EQ(classify(streaming(16, CodeSignature{})).key, "memory.dram_saturated");
}

TEST(Precedence, TooSmallWinsOverEverything) {
  KernelProfile k = quiet();
  k.duration_s = 3e-6, k.dram_throughput_pct = 95, k.memory_throughput_pct = 95;
  k.local_sectors = 1e6, k.global_load_sectors_per_request = 32, k.tensor_pipe_pct = 90;
  k.grid_size = 1, k.waves_per_sm = 0.01, k.achieved_occupancy_pct = 5;
  k.stall_share["barrier"] = 0.9;
  ClassifierInput in = input_of(k);
  in.kernels = {k, k, k};
  const PerfState s = classify(in);
  EXPECT_EQ(s.key, "launch.too_small");
  EXPECT_NE(s.explanation.find("3.0 us"), std::string::npos) << s.explanation;
}

TEST(Precedence, ManyKernelsEachMemoryBound) {
  KernelProfile k = quiet();
  k.memory_throughput_pct = 75.5, k.dram_throughput_pct = 75.5;
  ClassifierInput in = input_of(k);
  in.kernels = {k, k};
  const PerfState s = classify(in);
  EXPECT_EQ(s.key, "launch.many_small_kernels");
  EXPECT_NE(s.explanation.find("75.5"), std::string::npos) << s.explanation;
}

TEST(Precedence, LaunchShapeYieldsToASaturatedUnit) {
  KernelProfile k = quiet();
  k.waves_per_sm = 1.25, k.dram_throughput_pct = 91.2, k.memory_throughput_pct = 91.5;
  EXPECT_EQ(classify(input_of(k)).key, "memory.dram_saturated");
}

TEST(Precedence, TheBusiestPipeRelativeToItsThresholdDecides) {
  KernelProfile k = quiet();
  k.fma_pipe_pct = 61, k.xu_pipe_pct = 55;  // 61/60 < 55/50
  EXPECT_EQ(classify(input_of(k)).key, "compute.sfu_bound");
  k.fma_pipe_pct = 90;
  EXPECT_EQ(classify(input_of(k)).key, "compute.fp32_pipe_bound");
}

TEST(Precedence, MatmulOnTheFmaPipeIsTensorCoresUnused) {
  KernelProfile k = quiet();
  k.fma_pipe_pct = 85, k.sm_throughput_pct = 85;
  CodeSignature s = scalar_source();
  s.matmul_like = true;
  EXPECT_EQ(classify(input_of(k, s)).key, "compute.tensor_cores_unused");
  s.tensor_cores = true;
  EXPECT_EQ(classify(input_of(k, s)).key, "compute.fp32_pipe_bound");
}

TEST(Precedence, TheSmallestOccupancyLimitBinds) {
  KernelProfile k = quiet();
  k.achieved_occupancy_pct = 20, k.registers_per_thread = 128;
  k.limit_blocks_by_registers = 2, k.limit_blocks_by_shared = 1;
  EXPECT_EQ(classify(input_of(k)).key, "latency.low_occupancy_shared_memory");
  k.limit_blocks_by_shared = 2;  // a tie: registers come first
  EXPECT_EQ(classify(input_of(k)).key, "latency.low_occupancy_registers");
}

TEST(Precedence, SignatureGatesApplyOnlyWhenSourceIsKnown) {
  KernelProfile k = quiet();
  k.atomic_request_share = 0.3;
  EXPECT_EQ(classify(input_of(k, CodeSignature{})).key, "memory.atomic_contention");
  EXPECT_NE(classify(input_of(k, scalar_source())).key, "memory.atomic_contention");
}

TEST(MissingMetrics, FallbackNamesThem) {
  KernelProfile k;
  k.duration_s = 100e-6;
  const PerfState s = classify(input_of(k, CodeSignature{}));
  EXPECT_EQ(s.key, "latency.no_dominant_bottleneck");
  EXPECT_EQ(s.bottleneck, "latency");
  for (const char* m : {"sm_throughput_pct", "dram_throughput_pct", "stall_share", "waves_per_sm"})
    EXPECT_NE(s.explanation.find(m), std::string::npos) << m << ": " << s.explanation;
  EXPECT_EQ(s.explanation.find("duration_s"), std::string::npos) << s.explanation;
}

TEST(MissingMetrics, ARuleMissingOneInputDoesNotFire) {
  KernelProfile k = quiet();
  k.l2_throughput_pct = 85.0, k.dram_throughput_pct.reset();  // l2_bound needs both
  const PerfState s = classify(input_of(k));
  EXPECT_EQ(s.key, "latency.no_dominant_bottleneck");
  EXPECT_NE(s.explanation.find("missing inputs: dram_throughput_pct"), std::string::npos)
      << s.explanation;
}

}  // namespace
}  // namespace kblaster
