// Real check results from the H200 (fixtures/h200/README.md): valid against their
// schema, and carrying what a report needs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gpu/subprocess.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

const std::filesystem::path kFixtures = "tests/eval/fixtures/h200";

nlohmann::json fixture(const std::string& name) {
  std::ifstream in(testing::source_dir() / kFixtures / name);
  return nlohmann::json::parse(in);
}

TEST(ResultFixtures, EveryRealCheckResultValidatesAgainstItsSchema) {
  std::vector<std::string> argv = {"python3",
                                   (testing::source_dir() / "scripts/validate_result.py").string()};
  for (const char* name : {"UncoalescedAccessIsSlower.json", "CommentOnlyEditIsSame.json",
                           "ChangedOutputIsAFunctionalRegression.json",
                           "ANewKernelWithAReferenceIsVerifiedThenNew.json"})
    argv.push_back((testing::source_dir() / kFixtures / name).string());
  auto run = run_process(argv);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->exit_code, 0) << run->output;
  std::size_t ok = 0;
  for (auto at = run->output.find(": ok (check, schema_version 1)"); at != std::string::npos;
       at = run->output.find(": ok (check, schema_version 1)", at + 1))
    ++ok;
  EXPECT_EQ(ok, 4u) << run->output;
}

TEST(ResultFixtures, TheRealOptimizeResultValidatesAndCarriesItsEvidence) {
  const auto file = testing::source_dir() / kFixtures / "optimize_softmax_slow_scale_rows.json";
  auto run = run_process(
      {"python3", (testing::source_dir() / "scripts/validate_result.py").string(), file.string()});
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->exit_code, 0) << run->output;
  EXPECT_THAT(run->output, HasSubstr(": ok (optimize, schema_version 1)"));

  const auto j = fixture("optimize_softmax_slow_scale_rows.json");
  EXPECT_EQ(j["search_seed"], 7);
  EXPECT_EQ(j["provenance"]["gpu"]["name"], "NVIDIA H200");
  ASSERT_EQ(j["kernels"].size(), 2u);
  const auto& softmax = j["kernels"][0];
  EXPECT_EQ(softmax["kernel"], "softmax_slow");
  EXPECT_EQ(softmax["final_ab"]["ended"], "DECIDED");
  EXPECT_LT(softmax["final_ab"]["ci_high"].get<double>(), 1.0) << "verified faster";
  EXPECT_EQ(softmax["final_ab"]["samples"]["a_s"].size(),
            softmax["final_ab"]["pairs"].get<std::size_t>())
      << "every pair's raw times are kept";
  EXPECT_FALSE(softmax["steps"].empty());
}

// One real H200 result of every kind that needs a GPU (bench/results/2026-12-02-h200-aa43406;
// run's from bench/results/2026-12-02-h200-2f07333).
TEST(ResultFixtures, EveryKindsRealH200ResultValidates) {
  std::vector<std::string> argv = {"python3",
                                   (testing::source_dir() / "scripts/validate_result.py").string()};
  const std::vector<std::pair<const char*, const char*>> kinds = {
      {"bench_axpy_matmul_naive.json", "bench"},
      {"compare_slower_5.json", "compare"},
      {"verify_axpy_softmax.json", "verify"},
      {"profile_matmul_naive.json", "profile"},
      {"optimize_softmax_slow_matmul_naive.json", "optimize"},
      {"run_axpy_softmax.json", "run"}};
  for (const auto& [name, kind] : kinds)
    argv.push_back((testing::source_dir() / kFixtures / name).string());
  auto run = run_process(argv);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->exit_code, 0) << run->output;
  for (const auto& [name, kind] : kinds)
    EXPECT_THAT(run->output,
                HasSubstr(std::string(name) + ": ok (" + kind + ", schema_version 1)"));

  const auto compare = fixture("compare_slower_5.json");
  EXPECT_THAT(compare["runs"][0]["reason"].get<std::string>(), ::testing::StartsWith("SLOWER"));
  const auto bench = fixture("bench_axpy_matmul_naive.json");
  EXPECT_FALSE(bench["kernels"][0]["measurement"]["samples"].empty()) << "raw samples kept";
  const auto optimize = fixture("optimize_softmax_slow_matmul_naive.json");
  EXPECT_EQ(optimize["kernels"][1]["roofline"]["after"]["limit"], "compute");
  EXPECT_GT(optimize["kernels"][1]["steps"].back()["elapsed_s"].get<double>(), 0.0);
}

TEST(ResultFixtures, ANewKernelIsVerifiedAndNotTimed) {
  const auto added = fixture("ANewKernelWithAReferenceIsVerifiedThenNew.json");
  EXPECT_EQ(added["summary"], (nlohmann::json{{"NEW", 1}}));
  EXPECT_TRUE(added["kernels"][0]["timing"].is_null());
  EXPECT_TRUE(added["base"].is_string());
}

TEST(ResultFixtures, TheirVerdictsAndNumbersAreThereToReport) {
  const auto slower = fixture("UncoalescedAccessIsSlower.json");
  EXPECT_EQ(slower["summary"], (nlohmann::json{{"SLOWER", 2}}));
  const auto& axpy = slower["kernels"][0];
  EXPECT_EQ(axpy["kernel"], "axpy");
  EXPECT_GT(axpy["timing"]["ci_low"].get<double>(), 12.0);
  EXPECT_EQ(axpy["timing"]["ended"], "DECIDED");
  EXPECT_EQ(slower["provenance"]["gpu"]["name"], "NVIDIA H200");
  EXPECT_EQ(slower["provenance"]["seeds"].size(), 3u);

  const auto same = fixture("CommentOnlyEditIsSame.json");
  EXPECT_EQ(same["kernels"][0]["verdict"], "SAME");
  const double low = same["kernels"][0]["timing"]["ci_low"],
               high = same["kernels"][0]["timing"]["ci_high"];
  EXPECT_LT(low, 1.0);
  EXPECT_GT(high, 1.0);

  const auto wrong = fixture("ChangedOutputIsAFunctionalRegression.json");
  EXPECT_EQ(wrong["kernels"][0]["verdict"], "REGRESSION");
  EXPECT_TRUE(wrong["kernels"][0]["timing"].is_null()) << "a wrong kernel is not timed";
  EXPECT_THAT(wrong["kernels"][0]["reason"].get<std::string>(), HasSubstr("wrong_result"));
}

}  // namespace
}  // namespace kblaster
