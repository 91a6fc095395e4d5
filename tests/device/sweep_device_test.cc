// `kblaster sweep` on a real GPU: one shard of two runs its kernels (verified and timed), then
// searches each within --kernel-time, writing a run result, an optimize result per kernel and
// the sweep result, all valid against their schemas. Labelled `gpu`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "on_device.h"
#include "result_schema.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

class SweepOnDevice : public testing::OnDevice {};

nlohmann::json read_json(const std::string& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

TEST_F(SweepOnDevice, AShardRunsThenSearchesEachOfItsKernelsWithinItsBudget) {
  testing::TempDir work, schema_dir;
  auto r = testing::run_kblaster({"sweep",         "examples/kernels",
                                  "--kernel",      "axpy",
                                  "--kernel",      "scale_rows",
                                  "--kernel",      "softmax_slow",
                                  "--shard",       "1/2",
                                  "--kernel-time", "30",
                                  "--deadline",    "240",
                                  "--breadth",     "2",
                                  "--depth",       "2",
                                  "--search-seed", "7",
                                  "--kb",          (work.path() / "kb.sqlite").string(),
                                  "--out",         (work.path() / "out").string(),
                                  "--json"});
  keep("sweep", r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto value = nlohmann::json::parse(r.out);
  EXPECT_TRUE(testing::is_valid_result(value, "sweep", schema_dir));
  ASSERT_FALSE(value["kernels"].empty());
  EXPECT_TRUE(testing::is_valid_result(read_json(value["run_file"]), "run", schema_dir));
  EXPECT_EQ(value["optimize_files"].size() + value["not_searched"].size(), value["kernels"].size());
  const auto run_seeds = read_json(value["run_file"])["provenance"]["seeds"];
  ASSERT_FALSE(run_seeds.empty());
  for (const auto& file : value["optimize_files"]) {
    const auto optimized = read_json(file);
    EXPECT_TRUE(testing::is_valid_result(optimized, "optimize", schema_dir));
    // The searches verify at the run step's verification seeds, so they reuse its reference
    // outputs. The run's provenance also lists its bench's timing seeds (timing_seed: the
    // run's first seed + 1000 + i), which no search verifies at.
    const auto first = run_seeds.front().get<std::uint64_t>();
    for (const auto& seed : run_seeds)
      if (seed.get<std::uint64_t>() < first + 1000)  // eval/seed_source.h
        EXPECT_THAT(optimized["provenance"]["seeds"], ::testing::Contains(seed)) << file;
    for (const auto& k : optimized["kernels"])
      EXPECT_LE(k["seconds"].get<double>(), 30.0 + 60.0)
          << "a search keeps to --kernel-time, its last step and final A/B aside";
  }
  EXPECT_THAT(r.err, HasSubstr("sweep: shard 1/2 (--shard): "));
  // ... and do: a search reads the outputs the run step's harness left in the command's folder.
  if (!value["optimize_files"].empty())
    EXPECT_THAT(r.err, ::testing::ContainsRegex("optimize: references: [^\n]* [1-9][0-9]* from "
                                                "an earlier harness's files"));
  // Each searched kernel's cost is in the KB for the next split.
  auto stats = testing::run_kblaster(
      {"kb", "stats", "--kb", (work.path() / "kb.sqlite").string(), "--json"});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_EQ(nlohmann::json::parse(stats.out)["kernel_costs"], value["optimize_files"].size());
}

}  // namespace
}  // namespace kblaster
