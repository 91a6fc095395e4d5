#include "profile/kernel_profile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "profile/metric_list.h"

namespace kblaster {
namespace {

const char* kHeader =
    R"c("ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value")c";

// One details row: kernel `id`/`name`, then section, metric, unit and value.
std::string row(const std::string& id, const std::string& name, const std::string& section,
                const std::string& metric, const std::string& unit, const std::string& value) {
  return "\"" + id + "\",\"879\",\"s\",\"127.0.0.1\",\"" + name +
         "\",\"1\",\"7\",\"(256, 1, 1)\",\"(16384, 1, 1)\",\"0\",\"9.0\",\"" + section + "\",\"" +
         metric + "\",\"" + unit + "\",\"" + value + "\"\n";
}

std::string raw(const std::string& metric, const std::string& unit, const std::string& value,
                const std::string& id = "0", const std::string& name = "saxpy") {
  return row(id, name, "Command line profiler metrics", metric, unit, value);
}

KernelProfile profile_of(const std::string& body, size_t index = 0) {
  Result<std::vector<NcuKernel>> kernels =
      parse_ncu_csv(std::string(kHeader) + "\n" + body, "t.csv");
  EXPECT_TRUE(kernels.ok()) << kernels.error().describe();
  Result<KernelProfile> p = profile_from_ncu(kernels->at(index), "t.csv");
  EXPECT_TRUE(p.ok()) << p.error().describe();
  return *p;
}

// Values from our metric list on an H200 (saxpy, ncu 2025.3).
TEST(KernelProfile, RawMetricListFillsTheProfile) {
  const std::string a = "smsp__average_warps_issue_stalled_", s = "_per_issue_active.ratio";
  KernelProfile p = profile_of(
      raw("gpu__time_duration.sum", "ns", "16,096") +
      raw("dram__bytes_read.sum", "byte", "33,557,504") +
      raw("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "%", "44.56") +
      raw("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sector", "1,048,576") +
      raw("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "", "262,144") +
      raw("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "sector", "524,040") +
      raw("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "", "131,072") +
      raw("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "", "32,768") +
      raw("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "", "131,072") +
      raw("lts__t_requests_op_atom.sum", "request", "100") +
      raw("lts__t_requests_op_red.sum", "request", "0") +
      raw("lts__t_requests.sum", "request", "1,000") +
      raw("smsp__thread_inst_executed_per_inst_executed.ratio", "", "32") +
      raw("sm__pipe_xu_cycles_active.avg.pct_of_peak_sustained_active", "", "n/a") +
      raw("sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active", "%", "9.53") +
      raw(a + "long_scoreboard" + s, "inst", "36") + raw(a + "wait" + s, "inst", "3") +
      raw(a + "short_scoreboard" + s, "inst", "1") + raw(a + "selected" + s, "inst", "1"));
  EXPECT_EQ(p.name, "saxpy");
  EXPECT_DOUBLE_EQ(*p.duration_s, 16.096e-6);
  EXPECT_DOUBLE_EQ(*p.dram_bytes_read, 33557504.0);
  EXPECT_DOUBLE_EQ(*p.dram_throughput_pct, 44.56);
  EXPECT_DOUBLE_EQ(*p.global_load_sectors_per_request, 4.0);
  EXPECT_NEAR(*p.global_store_sectors_per_request, 3.998, 1e-3);
  EXPECT_DOUBLE_EQ(*p.global_sectors, 1048576.0 + 524040.0);
  EXPECT_DOUBLE_EQ(*p.shared_bank_conflict_ratio, 0.25);
  EXPECT_DOUBLE_EQ(*p.atomic_request_share, 0.1);
  EXPECT_DOUBLE_EQ(*p.threads_per_instruction, 32.0);
  EXPECT_DOUBLE_EQ(*p.xu_pipe_pct, 9.53);  // cycles metric is n/a on sm_90
  EXPECT_FALSE(p.local_sectors);
  EXPECT_FALSE(p.dram_bytes_written);
  ASSERT_EQ(p.stall_share.size(), 3u);  // "selected" is not a stall
  EXPECT_DOUBLE_EQ(p.stall_share.at("long_scoreboard"), 0.9);
  EXPECT_DOUBLE_EQ(p.stall_share.at("wait"), 0.075);
}

TEST(KernelProfile, UnitsConvertToBaseUnits) {
  auto seconds = [](const std::string& unit, const std::string& v) {
    return *profile_of(raw("gpu__time_duration.sum", unit, v)).duration_s;
  };
  EXPECT_DOUBLE_EQ(seconds("nsecond", "1,500"), 1.5e-6);
  EXPECT_DOUBLE_EQ(seconds("usecond", "2.5"), 2.5e-6);
  EXPECT_DOUBLE_EQ(seconds("msecond", "3"), 3e-3);
  EXPECT_DOUBLE_EQ(seconds("second", "1.25"), 1.25);
  EXPECT_DOUBLE_EQ(seconds("us", "7"), 7e-6);
  auto bytes = [](const std::string& unit, const std::string& v) {
    return *profile_of(raw("dram__bytes_write.sum", unit, v)).dram_bytes_written;
  };
  EXPECT_DOUBLE_EQ(bytes("byte", "909,312"), 909312.0);
  EXPECT_DOUBLE_EQ(bytes("Kbyte", "909.31"), 909310.0);
  EXPECT_DOUBLE_EQ(bytes("Mbyte", "33.56"), 33.56e6);
  EXPECT_DOUBLE_EQ(bytes("Gbyte", "1.5"), 1.5e9);
  KernelProfile shared =
      profile_of(raw("launch__shared_mem_per_block_static", "Kbyte/block", "16.38") +
                 raw("launch__shared_mem_per_block_dynamic", "byte/block", "1,024"));
  EXPECT_DOUBLE_EQ(*shared.shared_bytes_per_block, 16380.0 + 1024.0);
}

// A `--set full` details page and our raw list describe the same launch.
TEST(KernelProfile, FriendlyAndRawNamesGiveTheSameFields) {
  const std::string sol = "GPU Speed Of Light Throughput", ls = "Launch Statistics",
                    oc = "Occupancy";
  const std::string mw = "Memory Workload Analysis";
  KernelProfile friendly = profile_of(
      row("0", "k", sol, "Duration", "ns", "15,968") +
      row("0", "k", sol, "Elapsed Cycles", "cycle", "23,856") +
      row("0", "k", sol, "Compute (SM) Throughput", "%", "42.11") +
      row("0", "k", sol, "Memory Throughput", "%", "44.92") +
      row("0", "k", sol, "DRAM Throughput", "%", "44.90") +
      row("0", "k", sol, "L1/TEX Cache Throughput", "%", "26.84") +
      row("0", "k", sol, "L2 Cache Throughput", "%", "70.63") +
      row("0", "k", mw, "L1/TEX Hit Rate", "%", "33.22") +
      row("0", "k", mw, "L2 Hit Rate", "%", "35.04") + row("0", "k", ls, "Block Size", "", "256") +
      row("0", "k", ls, "Grid Size", "", "16,384") +
      row("0", "k", ls, "Registers Per Thread", "register/thread", "16") +
      row("0", "k", ls, "Static Shared Memory Per Block", "byte/block", "0") +
      row("0", "k", ls, "Dynamic Shared Memory Per Block", "Kbyte/block", "1.02") +
      row("0", "k", ls, "Waves Per SM", "", "15.52") + row("0", "k", ls, "# SMs", "SM", "132") +
      row("0", "k", oc, "Theoretical Occupancy", "%", "100") +
      row("0", "k", oc, "Achieved Occupancy", "%", "74.62") +
      row("0", "k", oc, "Block Limit Registers", "block", "16") +
      row("0", "k", oc, "Block Limit Shared Mem", "block", "32") +
      row("0", "k", oc, "Block Limit Warps", "block", "8") +
      row("0", "k", oc, "Block Limit SM", "block", "32") +
      row("0", "k", "Warp State Statistics", "Avg. Active Threads Per Warp", "", "32"));
  KernelProfile by_raw = profile_of(
      raw("gpu__time_duration.sum", "usecond", "15.968") +
      raw("gpc__cycles_elapsed.max", "cycle", "23,856") +
      raw("sm__throughput.avg.pct_of_peak_sustained_elapsed", "%", "42.11") +
      raw("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "%", "44.92") +
      raw("dram__throughput.avg.pct_of_peak_sustained_elapsed", "%", "44.90") +
      raw("l1tex__throughput.avg.pct_of_peak_sustained_active", "%", "26.84") +
      raw("lts__throughput.avg.pct_of_peak_sustained_elapsed", "%", "70.63") +
      raw("l1tex__t_sector_hit_rate.pct", "%", "33.22") +
      raw("lts__t_sector_hit_rate.pct", "%", "35.04") + raw("launch__block_size", "", "256") +
      raw("launch__grid_size", "", "16,384") +
      raw("launch__registers_per_thread", "register/thread", "16") +
      raw("launch__shared_mem_per_block_static", "byte/block", "0") +
      raw("launch__shared_mem_per_block_dynamic", "byte/block", "1,020") +
      raw("launch__waves_per_multiprocessor", "", "15.52") +
      raw("device__attribute_multiprocessor_count", "", "132") +
      raw("sm__maximum_warps_per_active_cycle_pct", "%", "100") +
      raw("sm__warps_active.avg.pct_of_peak_sustained_active", "%", "74.62") +
      raw("launch__occupancy_limit_registers", "block", "16") +
      raw("launch__occupancy_limit_shared_mem", "block", "32") +
      raw("launch__occupancy_limit_warps", "block", "8") +
      raw("launch__occupancy_limit_blocks", "block", "32") +
      raw("smsp__thread_inst_executed_per_inst_executed.ratio", "", "32"));
  const std::optional<double> KernelProfile::*fields[] = {&KernelProfile::duration_s,
                                                          &KernelProfile::elapsed_cycles,
                                                          &KernelProfile::sm_throughput_pct,
                                                          &KernelProfile::memory_throughput_pct,
                                                          &KernelProfile::dram_throughput_pct,
                                                          &KernelProfile::l1_throughput_pct,
                                                          &KernelProfile::l2_throughput_pct,
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
                                                          &KernelProfile::threads_per_instruction};
  for (size_t i = 0; i < std::size(fields); ++i) {
    ASSERT_TRUE(friendly.*fields[i]) << "field " << i;
    ASSERT_TRUE(by_raw.*fields[i]) << "field " << i;
    EXPECT_DOUBLE_EQ(*(friendly.*fields[i]), *(by_raw.*fields[i])) << "field " << i;
  }
}

TEST(KernelProfile, UnparseableKnownMetricNamesOriginKernelAndMetric) {
  Result<std::vector<NcuKernel>> k = parse_ncu_csv(
      std::string(kHeader) + "\n" + raw("launch__func_cache_config", "", "CachePreferNone") +
          raw("gpu__time_duration.sum", "ns", "fast"),
      "t.csv");
  ASSERT_TRUE(k.ok());
  Result<KernelProfile> p = profile_from_ncu(k->at(0), "run/ncu.csv");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, ErrorKind::config);
  EXPECT_EQ(p.error().where, "run/ncu.csv");
  EXPECT_NE(p.error().message.find("saxpy"), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find("gpu__time_duration.sum"), std::string::npos);
}

TEST(KernelProfile, SeveralKernelsPerKernelAndSummed) {
  const std::string body =
      raw("gpu__time_duration.sum", "usecond", "3", "0", "pack") +
      raw("dram__bytes_read.sum", "Mbyte", "1", "0", "pack") +
      raw("sm__throughput.avg.pct_of_peak_sustained_elapsed", "%", "10", "0", "pack") +
      raw(stall_metric_name("wait"), "inst", "1", "0", "pack") +
      raw("gpu__time_duration.sum", "usecond", "1", "1", "reduce") +
      raw("dram__bytes_read.sum", "Mbyte", "2", "1", "reduce") +
      raw("sm__throughput.avg.pct_of_peak_sustained_elapsed", "%", "50", "1", "reduce") +
      raw(stall_metric_name("barrier"), "inst", "1", "1", "reduce");
  KernelProfile pack = profile_of(body, 0), reduce = profile_of(body, 1);
  EXPECT_EQ(pack.name, "pack");
  EXPECT_EQ(reduce.name, "reduce");
  EXPECT_DOUBLE_EQ(*reduce.duration_s, 1e-6);
  KernelProfile total = sum_profiles({pack, reduce});
  EXPECT_EQ(total.name, "<launcher total>");
  EXPECT_EQ(total.launches, 2);
  EXPECT_DOUBLE_EQ(*total.duration_s, 4e-6);
  EXPECT_DOUBLE_EQ(*total.dram_bytes_read, 3e6);
  EXPECT_DOUBLE_EQ(*total.sm_throughput_pct, 20.0);  // (3*10 + 1*50) / 4
  EXPECT_DOUBLE_EQ(total.stall_share.at("wait"), 0.75);
  EXPECT_DOUBLE_EQ(total.stall_share.at("barrier"), 0.25);
  reduce.dram_bytes_read.reset();  // a partial sum would understate the launcher
  EXPECT_FALSE(sum_profiles({pack, reduce}).dram_bytes_read);
  EXPECT_EQ(sum_profiles({}).launches, 0);
}

TEST(MetricList, CoversEveryRawNameTheProfileReads) {
  const std::vector<std::string>& names = profile_metric_names();
  auto has = [&](const std::string& n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  EXPECT_TRUE(has("gpu__time_duration.sum"));
  EXPECT_TRUE(has("launch__occupancy_limit_shared_mem"));
  EXPECT_TRUE(has(stall_metric_name("long_scoreboard")));
  EXPECT_FALSE(has(stall_metric_name("selected")));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
}

}  // namespace
}  // namespace kblaster
