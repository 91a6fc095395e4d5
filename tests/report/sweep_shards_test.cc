// A sweep's shards reported together read as the unsharded sweep (issue 20): checked on the run
// results of the same sweep of examples/kernels on the H200, once unsharded and once in 3 shards.
#include "report/sweep_shards.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "report/json_report.h"
#include "report/report_render.h"
#include "report/result_reader.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using nlohmann::json;

const char* kSweep = "tests/eval/fixtures/h200/sweep/";

SavedResult fixture(const std::string& name) {
  std::ifstream in(testing::source_dir() / (std::string(kSweep) + name));
  return {json::parse(in), name};
}

std::vector<SavedResult> shards() {
  return {fixture("run-shard-1-of-3.json"), fixture("run-shard-2-of-3.json"),
          fixture("run-shard-3-of-3.json")};
}

std::vector<std::string> names(const json& run) {
  std::vector<std::string> out;
  for (const auto& k : run["kernels"]) out.push_back(k["name"]);
  return out;
}

// The report's results: kind, kernel names and keys, which must not depend on sharding.
std::vector<std::tuple<std::string, std::set<std::string>, std::set<std::string>>> structure(
    const std::vector<SavedResult>& saved) {
  std::vector<ResultView> views;
  for (const auto& r : saved) {
    auto view = read_result(r.value, r.origin);
    EXPECT_TRUE(view.ok()) << view.error().message;
    if (view) views.push_back(std::move(*view));
  }
  std::vector<std::tuple<std::string, std::set<std::string>, std::set<std::string>>> out;
  const json report = report_json(views);
  for (const auto& r : report["results"]) {
    std::set<std::string> kernels, keys;
    for (const auto& k : r["kernels"]) kernels.insert(k["name"].get<std::string>());
    for (const auto& [key, value] : r.items()) keys.insert(key);
    out.emplace_back(r["kind"], kernels, keys);
  }
  return out;
}

TEST(SweepShards, ThreeShardsOfASweepReadAsTheUnshardedSweep) {
  const auto merged = merge_sweep_shards(shards());
  ASSERT_EQ(merged.size(), 1u);
  const SavedResult one = fixture("run-unsharded.json");
  auto expected = names(one.value);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(names(merged[0].value), expected) << "every kernel once, by name";
  EXPECT_EQ(merged[0].origin,
            "run-shard-1-of-3.json + run-shard-2-of-3.json + run-shard-3-of-3.json");
  EXPECT_EQ(merged[0].value["builds"]["kernels"].size(), one.value["builds"]["kernels"].size());
  EXPECT_EQ(merged[0].value["builds"]["cache"]["hits"], 4 + 3 + 3);
  EXPECT_EQ(merged[0].value["provenance"]["started_at"], "2026-12-03T03:35:10Z");
  EXPECT_EQ(merged[0].value["provenance"]["finished_at"],
            shards()[2].value["provenance"]["finished_at"]);
  EXPECT_EQ(structure(merged), structure({one}));
  // Unmerged, the report had three runs where the unsharded sweep has one.
  EXPECT_NE(structure(shards()), structure({one}));
}

TEST(SweepShards, RunsThatShareAKernelOrDifferInGpuAreNotShards) {
  auto overlapping = shards();
  overlapping.push_back(fixture("run-shard-1-of-3.json"));  // the same kernels again
  auto merged = merge_sweep_shards(overlapping);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[1].value["kernels"].size(), shards()[0].value["kernels"].size());

  auto other_gpu = shards();
  other_gpu[1].value["provenance"]["gpu"]["name"] = "NVIDIA H100 80GB HBM3";
  merged = merge_sweep_shards(other_gpu);
  ASSERT_EQ(merged.size(), 2u) << "shards 1 and 3 merge; shard 2 ran elsewhere";
  EXPECT_EQ(merged[1].origin, "run-shard-2-of-3.json");
}

TEST(SweepShards, OtherResultsKeepTheirPlaceAndOrder) {
  std::ifstream in(testing::source_dir() /
                   "tests/eval/fixtures/h200/UncoalescedAccessIsSlower.json");
  SavedResult check{json::parse(in), "check.json"};
  auto mixed = shards();
  mixed.insert(mixed.begin() + 1, check);
  const auto merged = merge_sweep_shards(mixed);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].value["kind"], "run");
  EXPECT_EQ(merged[0].value["kernels"].size(), 10u);
  EXPECT_EQ(merged[1].origin, "check.json");
}

// Through the files, as `kblaster report run-*.json` reads them: one run in the report.
TEST(SweepShards, TheReportOfShardFilesHasOneRun) {
  std::vector<std::string> files;
  for (const auto& s : shards())
    files.push_back((testing::source_dir() / (std::string(kSweep) + s.origin)).string());
  auto text = render_files(files, ReportFormat::json);
  ASSERT_TRUE(text.ok()) << text.error().message;
  const auto report = json::parse(*text);
  ASSERT_EQ(report["results"].size(), 1u);
  EXPECT_EQ(report["results"][0]["kernels"].size(), 10u);
}

}  // namespace
}  // namespace kblaster
