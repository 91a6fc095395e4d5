// The state classifier on real Nsight Compute output: ncu 2025.3.1 on the H200,
// captured by `kblaster profile examples/kernels` (kblaster's metric list, raw
// page) and `--full-set` (details page) on 2026-11-30
// (bench/results/2026-11-30-h200/profile/). axpy.csv, transpose.csv and relu.csv are fresh
// captures of 2026-12-02 (bench/results/2026-12-02-h200-648559c.md), made after the state rules
// were fitted to the 2026-11-30 ones, so those three test the rules on data they never saw.
// Each fixture must give its state.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli/cli_run.h"
#include "eval/profile_report.h"
#include "profile/profile_delta.h"
#include "result_schema.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using testing::read_text;

struct Fixture {
  const char* csv;     // under tests/profile/fixtures/h200/
  const char* source;  // under examples/kernels/kernels/
  const char* state;
};

class FixtureState : public ::testing::TestWithParam<Fixture> {};

TEST_P(FixtureState, ClassifiesAsItsKernelBehaves) {
  const Fixture& f = GetParam();
  const auto dir = testing::source_dir() / "tests" / "profile" / "fixtures" / "h200";
  const std::string csv = read_text(dir / f.csv);
  ASSERT_FALSE(csv.empty()) << f.csv;
  const auto source = read_text(testing::examples_dir() / "kernels" / f.source);
  auto report = read_profile(csv, f.csv, read_signature(source), std::nullopt);
  ASSERT_TRUE(report.ok()) << report.error().describe();
  EXPECT_EQ(report->state.key, f.state) << report->state.explanation;
  EXPECT_FALSE(report->state.explanation.empty());
}

INSTANTIATE_TEST_SUITE_P(
    H200, FixtureState,
    ::testing::Values(
        Fixture{"axpy.csv", "axpy.cu", "memory.dram_saturated"},
        Fixture{"axpy.full.csv", "axpy.cu", "memory.dram_saturated"},
        Fixture{"axpy_small.csv", "axpy.cu", "launch.too_small"},
        Fixture{"transpose.csv", "transpose.cu", "memory.dram_saturated"},
        Fixture{"softmax.csv", "softmax.cu", "latency.memory_dependency_stalls"},
        Fixture{"layernorm.csv", "layernorm.cu", "latency.memory_dependency_stalls"},
        Fixture{"scale_rows.csv", "scale_rows.cu", "latency.memory_dependency_stalls"},
        Fixture{"relu.csv", "relu_bench.cu", "latency.memory_dependency_stalls"},
        Fixture{"reduce_sum.csv", "reduce/reduce.cu", "latency.memory_dependency_stalls"},
        Fixture{"softmax_slow.csv", "softmax_slow.cu", "launch.grid_undersized"},
        Fixture{"softmax_slow.full.csv", "softmax_slow.cu", "launch.grid_undersized"},
        Fixture{"matmul_naive.csv", "matmul_naive.cu", "memory.l1_bound"},
        Fixture{"matmul_naive.full.csv", "matmul_naive.cu", "memory.l1_bound"}),
    [](const ::testing::TestParamInfo<Fixture>& info) {
      std::string name = info.param.csv;
      for (char& c : name)
        if (c == '.') c = '_';
      return name;
    });

// reduce_sum's launcher starts two kernels: each is profiled, and the total sums them.
TEST(FixtureProfile, ALauncherOfTwoKernelsIsProfiledPerKernelAndSummed) {
  const auto dir = testing::source_dir() / "tests" / "profile" / "fixtures" / "h200";
  auto r =
      read_profile(read_text(dir / "reduce_sum.csv"), "reduce_sum.csv", std::nullopt, std::nullopt);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->kernels.size(), 2u);
  EXPECT_THAT(r->kernels[0].name, ::testing::StartsWith("reduce_sum_blocks"));
  EXPECT_THAT(r->kernels[1].name, ::testing::StartsWith("reduce_sum_final"));
  EXPECT_EQ(r->total.launches, 2);
  EXPECT_DOUBLE_EQ(*r->total.duration_s, *r->kernels[0].duration_s + *r->kernels[1].duration_s);
  EXPECT_DOUBLE_EQ(*r->total.dram_bytes_read,
                   *r->kernels[0].dram_bytes_read + *r->kernels[1].dram_bytes_read);
  // Two grids do not scale with one block size: the state carries no launch shape.
  EXPECT_FALSE(r->state.launch.grid_size.has_value());
  auto one = read_profile(read_text(dir / "softmax_slow.csv"), "softmax_slow.csv", std::nullopt,
                          std::nullopt);
  ASSERT_TRUE(one.ok()) << one.error().describe();
  ASSERT_TRUE(one->state.launch.grid_size.has_value());
  EXPECT_EQ(*one->state.launch.grid_size, 64.0);
  EXPECT_EQ(*one->state.launch.sm_count, 132.0);
}

TEST(FixtureProfile, TheStateCarriesItsProfileWhichAPromptShowsMetricByMetric) {
  const auto dir = testing::source_dir() / "tests" / "profile" / "fixtures" / "h200";
  auto r = read_profile(read_text(dir / "softmax_slow.csv"), "softmax_slow.csv", std::nullopt,
                        std::nullopt);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_TRUE(r->state.profile.has_value()) << "the state says what it was read from";
  EXPECT_EQ(r->state.profile->duration_s, r->total.duration_s);
  std::ostringstream lines;
  print_profile_metrics(lines, *r->state.profile);
  const std::string text = lines.str();
  EXPECT_THAT(text, ::testing::StartsWith("- duration: "));
  EXPECT_THAT(text, ::testing::HasSubstr("\n- DRAM throughput: "));
  EXPECT_THAT(text, ::testing::HasSubstr("\n- registers per thread: "));
  for (std::size_t at = 0; at < text.size(); at = text.find('\n', at) + 1)
    EXPECT_EQ(text.compare(at, 2, "- "), 0) << "one metric per line: " << text;
}

// Issue 5's acceptance: a saved `--set full` CSV of a streaming kernel is
// memory-bound, and the explanation quotes the DRAM throughput seen (65.5%).
TEST(ClassifyCli, ASavedFullSetOfAStreamingKernelIsMemoryBoundAndQuotesItsDramThroughput) {
  const auto csv = testing::source_dir() / "tests/profile/fixtures/h200/axpy.full.csv";
  auto r = testing::run_kblaster({"classify", "--ncu-csv", csv.string(), "--source",
                                  (testing::examples_dir() / "kernels/axpy.cu").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::HasSubstr("state: memory.dram_saturated"));
  EXPECT_THAT(r.out, ::testing::HasSubstr("DRAM throughput 65.5% of ncu's peak"));
  EXPECT_THAT(r.out, ::testing::HasSubstr("code: restrict_pointers"));
}

TEST(ClassifyCli, PrintsTheProfileDeltaBetweenTwoRuns) {
  const auto dir = testing::source_dir() / "tests/profile/fixtures/h200";
  auto r = testing::run_kblaster({"classify", "--ncu-csv", (dir / "softmax.csv").string(),
                                  "--before-csv", (dir / "softmax_slow.csv").string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["delta"]["state_before"], "launch.grid_undersized");
  EXPECT_EQ(j["delta"]["state_after"], "latency.memory_dependency_stalls");
  EXPECT_EQ(j["delta"]["metrics"][0]["metric"], "duration");
  EXPECT_GT(j["delta"]["metrics"][0]["before"].get<double>(),
            10 * j["delta"]["metrics"][0]["after"].get<double>());
}

// classify --json is a classify result: the profile, where it was read from, and the
// delta, valid against reports/schema/classify.schema.json.
TEST(ClassifyCli, ItsJsonIsAClassifyResultThatValidatesAgainstItsSchema) {
  const auto dir = testing::source_dir() / "tests/profile/fixtures/h200";
  const auto source = testing::examples_dir() / "kernels/softmax.cu";
  auto r = testing::run_kblaster({"classify", "--ncu-csv", (dir / "softmax.csv").string(),
                                  "--source", source.string(), "--before-csv",
                                  (dir / "softmax_slow.csv").string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kind"], "classify");
  EXPECT_EQ(j["csv"], (dir / "softmax.csv").string());
  EXPECT_EQ(j["source"], source.string());
  EXPECT_EQ(j["before"]["csv"], (dir / "softmax_slow.csv").string());
  EXPECT_EQ(j["before"]["source"], source.string()) << "--before-source defaults to --source";
  EXPECT_EQ(j["state"]["key"], "latency.memory_dependency_stalls");
  EXPECT_TRUE(j["provenance"]["gpu"].is_null()) << "classify reads saved files";
  EXPECT_EQ(j["provenance"]["command_line"][1], "classify");
  testing::TempDir out;
  EXPECT_TRUE(testing::is_valid_result(j, "classify", out));

  j["state"]["bottleneck"] = "network";
  j["delta"]["state_after"] = "Memory Bound";
  j["rooflines"] = nullptr;
  EXPECT_TRUE(testing::is_rejected_naming(j,
                                          {"state/bottleneck: 'network' is not one of",
                                           "delta/state_after: 'Memory Bound' does not match",
                                           "Unevaluated properties are not allowed ('rooflines'"},
                                          out));
}

TEST(ClassifyCli, AMissingOrBrokenCsvNamesTheFile) {
  testing::TempDir dir;
  auto missing = testing::run_kblaster({"classify", "--ncu-csv", "/nonexistent/x.csv"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, ::testing::HasSubstr("/nonexistent/x.csv"));
  const auto broken = dir.write("broken.csv", "==PROF== Disconnected\nno header here\n");
  auto r = testing::run_kblaster({"classify", "--ncu-csv", broken.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("broken.csv"));
}

// A NaN or negative metric (edited into a real capture) is refused with the file,
// the row and the metric, where it used to print "SM nan%" and a state.
TEST(ClassifyCli, ANanOrNegativeMetricIsAnErrorNamingFileRowAndMetric) {
  testing::TempDir dir;
  const std::string full =
      testing::read_text(testing::source_dir() / "tests/profile/fixtures/h200/axpy.full.csv");
  const struct {
    std::string metric, good, bad;
    int line;
  } cases[] = {{"Compute (SM) Throughput", "34.98", "nan", 17},
               {"DRAM Throughput", "65.53", "-5", 12}};
  for (const auto& c : cases) {
    std::string edited = full;
    const std::string cell = "\"" + c.metric + "\",\"%\",\"";
    const auto at = edited.find(cell + c.good + "\"");
    ASSERT_NE(at, std::string::npos) << c.metric;
    edited.replace(at + cell.size(), c.good.size(), c.bad);
    const auto csv = dir.write("edited.csv", edited);
    auto r = testing::run_kblaster({"classify", "--ncu-csv", csv.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err,
                ::testing::HasSubstr(csv.string() + ":" + std::to_string(c.line) + ": metric `" +
                                     c.metric + "` has the value `" + c.bad + "`"));
    EXPECT_EQ(r.out, "") << "no state is printed";
  }
}

// The roofline needs the workload and the ceiling: half of the pair used to be
// dropped without a word, and is now a usage error naming the missing flag.
TEST(ClassifyCli, HalfARooflineIsAUsageError) {
  const auto csv = testing::source_dir() / "tests/profile/fixtures/h200/axpy.csv";
  auto half = testing::run_kblaster({"classify", "--ncu-csv", csv.string(), "--min-bytes", "100"});
  EXPECT_EQ(half.exit_code, 2);
  EXPECT_THAT(half.err, ::testing::HasSubstr("--min-bytes requires --peak-dram"));
  auto zero = testing::run_kblaster(
      {"classify", "--ncu-csv", csv.string(), "--min-bytes", "0", "--peak-dram", "4.3e12"});
  EXPECT_EQ(zero.exit_code, 2) << "a zero workload would drop the roofline as silently";
  EXPECT_THAT(zero.err, ::testing::HasSubstr("--min-bytes: `0` is not a positive number"));
  auto whole = testing::run_kblaster({"classify", "--ncu-csv", csv.string(), "--min-bytes",
                                      "201326592", "--peak-dram", "4.3e12", "--json"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_TRUE(nlohmann::json::parse(whole.out).contains("roofline")) << whole.out;
}

}  // namespace
}  // namespace kblaster
