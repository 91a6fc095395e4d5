// `kblaster sweep` as a nightly job's shards run it: each shard a process of its own, on the
// example kernels. On this machine (no GPU) every shard builds its kernels and stops with
// exit 3, naming what it did not search and why; the GPU half is the gpu tests' and the H200's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_run.h"
#include "gpu/device_probe.h"
#include "kb/store.h"
#include "result_schema.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using testing::run_kblaster;

nlohmann::json read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

// Sets an environment variable for the life of the object (the child kblaster inherits it).
struct ScopedVariable {
  ScopedVariable(const char* name, const char* value) : name(name) { ::setenv(name, value, 1); }
  ~ScopedVariable() { ::unsetenv(name); }
  const char* name;
};

TEST(SweepCli, ThreeShardsTakeEveryKernelOnceAndSayWhereTheirResultsAre) {
  if (CudaDriverProbe().probe().present) GTEST_SKIP() << "a GPU would run the searches: gpu tests";
  testing::TempDir cache, out;
  std::multiset<std::string> taken;
  testing::TempDir schema_dir;
  for (int k = 1; k <= 3; ++k) {
    const auto dir = out.path() / std::to_string(k);
    auto r = run_kblaster({"sweep", "examples/kernels", "--shard", std::to_string(k) + "/3",
                           "--cache-dir", cache.path().string(), "--out", dir.string(), "--json"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_THAT(r.err, HasSubstr("sweep: shard " + std::to_string(k) + "/3 (--shard): "));
    const auto value = nlohmann::json::parse(r.out);
    EXPECT_TRUE(testing::is_valid_result(value, "sweep", schema_dir));
    EXPECT_EQ(value, read_json(dir / "sweep.json")) << "the printed result is the one written";
    EXPECT_EQ(value["repository_kernels"], 10);
    EXPECT_EQ(value["shard"]["index"], k);
    ASSERT_TRUE(value["run_file"].is_string());
    EXPECT_TRUE(testing::is_valid_result(read_json(value["run_file"].get<std::string>()), "run",
                                         schema_dir));
    EXPECT_EQ(value["not_searched"].size(), value["kernels"].size());
    for (const auto& n : value["not_searched"])
      EXPECT_THAT(n["why"].get<std::string>(), HasSubstr("no GPU: "));
    for (const auto& name : value["kernels"]) taken.insert(name.get<std::string>());
  }
  EXPECT_EQ(taken.size(), 10u);
  EXPECT_EQ(std::set<std::string>(taken.begin(), taken.end()).size(), 10u) << "none twice";
}

TEST(SweepCli, TheKbsRecordedCostsBalanceTheSplitAndEveryShardShowsTheSameDigest) {
  if (CudaDriverProbe().probe().present) GTEST_SKIP() << "a GPU would run the searches: gpu tests";
  testing::TempDir work;
  const auto kb_file = work.path() / "kb.sqlite";
  {
    auto kb = Store::open(kb_file);
    ASSERT_TRUE(kb.ok());
    for (const auto& [task, seconds] : std::vector<std::pair<std::string, double>>{
             {"axpy", 100}, {"softmax", 60}, {"scale_rows", 50}})
      ASSERT_TRUE(kb->record_cost({task, "sm_90", seconds, 1'700'000'000}).ok());
  }
  std::vector<nlohmann::json> shards;
  for (int k = 1; k <= 2; ++k) {
    auto r = run_kblaster({"sweep", "examples/kernels", "--kernel", "axpy", "--kernel", "softmax",
                           "--kernel", "scale_rows", "--shard", std::to_string(k) + "/2", "--kb",
                           kb_file.string(), "--cache-dir", (work.path() / "cache").string(),
                           "--out", (work.path() / std::to_string(k)).string(), "--json"});
    ASSERT_EQ(r.exit_code, 3) << r.err;
    shards.push_back(nlohmann::json::parse(r.out));
  }
  // Longest first: axpy (100 s) alone; softmax (60 s) and scale_rows (50 s) together. By name
  // alone, shard 1 would have taken axpy and softmax.
  EXPECT_EQ(shards[0]["kernels"], nlohmann::json({"axpy"}));
  EXPECT_EQ(shards[1]["kernels"], nlohmann::json({"softmax", "scale_rows"}));
  EXPECT_EQ(shards[0]["shard"]["costs_known"], 3);
  EXPECT_EQ(shards[0]["shard"]["split_digest"], shards[1]["shard"]["split_digest"]);
}

TEST(SweepCli, TheShardComesFromAKubernetesIndexedJobOrASlurmArray) {
  testing::TempDir out;
  {
    ScopedVariable index("JOB_COMPLETION_INDEX", "10"), count("KBLASTER_SHARD_COUNT", "11");
    // Shard 11 of 11 over 10 kernels takes none: it says so and succeeds.
    auto r = run_kblaster({"sweep", "examples/kernels", "--out", out.path().string(), "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("sweep: shard 11/11 (the environment): 0 of 10 kernel(s)"));
    EXPECT_THAT(r.err, HasSubstr("this shard takes no kernel"));
    const auto value = nlohmann::json::parse(r.out);
    EXPECT_TRUE(value["run_file"].is_null());
  }
  {
    ScopedVariable id("SLURM_ARRAY_TASK_ID", "seven");
    auto r = run_kblaster({"sweep", "examples/kernels", "--out", out.path().string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("SLURM_ARRAY_TASK_ID=`seven` is not an integer"));
  }
  // The searches take a model as optimize does, and its flags are checked as optimize's.
  auto model_flag = run_kblaster({"sweep", "examples/kernels", "--llm-model", "m"});
  EXPECT_EQ(model_flag.exit_code, 2) << model_flag.err;
  EXPECT_THAT(model_flag.err, HasSubstr("are for a model: give --llm BACKEND"));
  auto bad = run_kblaster({"sweep", "examples/kernels", "--shard", "4/3"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--shard: `4/3` is no shard"));
}

}  // namespace
}  // namespace kblaster
