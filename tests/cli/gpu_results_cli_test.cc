// The GPU commands' --json through the real binary on a machine without a GPU: each
// still prints its versioned result, every kernel skipped with the reason, and exits 3.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "gpu/device_probe.h"
#include "result_schema.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using testing::run_kblaster;

class WithoutAGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (CudaDriverProbe().probe().present) GTEST_SKIP() << "a CUDA device is present";
  }
  // Runs `args`, expects exit 3 and a result of `kind` that validates, and returns it.
  nlohmann::json skipped_result(const std::vector<std::string>& args, const std::string& kind) {
    auto r = run_kblaster(args);
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_THAT(r.err, HasSubstr("no CUDA device present ("));
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["kind"], kind);
    EXPECT_EQ(j["schema_version"], 1);
    EXPECT_TRUE(j["provenance"]["gpu"].is_null());
    EXPECT_EQ(j["provenance"]["command_line"][1], kind);
    EXPECT_THAT(j["skipped"].get<std::string>(), HasSubstr("no CUDA device present ("));
    EXPECT_TRUE(testing::is_valid_result(j, kind, dir));
    return j;
  }
  testing::TempDir dir;
};

TEST_F(WithoutAGpu, BenchPrintsABenchResultWithEveryKernelSkipped) {
  auto j = skipped_result({"bench", "examples/kernels", "--kernel", "axpy", "--json"}, "bench");
  ASSERT_EQ(j["kernels"].size(), 1u);
  EXPECT_EQ(j["kernels"][0]["name"], "axpy");
  EXPECT_EQ(j["kernels"][0]["verification"]["status"], "skipped");
  EXPECT_EQ(j["kernels"][0]["verification"]["skip_reason"], "no CUDA device");
  EXPECT_FALSE(j["kernels"][0].contains("measurement"));
  EXPECT_EQ(j["builds"], nlohmann::json::object()) << "nothing is built without a GPU";

  j["kernels"][0]["verification"]["status"] = "maybe";
  EXPECT_TRUE(testing::is_rejected_naming(
      j, {"kernels/0/verification/status: 'maybe' is not one of"}, dir));
}

TEST_F(WithoutAGpu, ComparePrintsACompareResultWithBothSkipped) {
  auto j = skipped_result({"compare", "bench/compare_kernels", "--a", "base", "--b", "slower_2",
                           "--min-effect", "0.05", "--json"},
                          "compare");
  EXPECT_EQ(j["a"]["kernel"], "base");
  EXPECT_EQ(j["b"]["kernel"], "slower_2");
  EXPECT_EQ(j["min_effect"], 0.05);
  ASSERT_EQ(j["verification"].size(), 2u);
  EXPECT_EQ(j["verification"][1]["status"], "skipped");
  EXPECT_EQ(j["runs"], nlohmann::json::array());

  j["a"].erase("source");
  EXPECT_TRUE(testing::is_rejected_naming(j, {"a: 'source' is a required property"}, dir));
}

// The study behind the default: docs/cli.md, compare.
TEST_F(WithoutAGpu, CompareJudgesAtTheStudiedMinimumEffectUnlessTold) {
  auto j = skipped_result(
      {"compare", "bench/compare_kernels", "--a", "base", "--b", "slower_2", "--json"}, "compare");
  EXPECT_EQ(j["min_effect"], 0.015);
}

TEST_F(WithoutAGpu, VerifyPrintsAVerifyResultWithEveryKernelSkipped) {
  auto j = skipped_result(
      {"verify", "examples/kernels", "--kernel", "softmax", "--kernel", "axpy", "--json"},
      "verify");
  EXPECT_EQ(j["summary"], (nlohmann::json{{"skipped", 2}}));
  ASSERT_EQ(j["kernels"].size(), 2u);
  EXPECT_EQ(j["kernels"][0]["name"], "axpy") << "in config order";
  EXPECT_EQ(j["kernels"][1]["skip_reason"], "no CUDA device");
  EXPECT_EQ(j["kernels"][1]["sizes"], nlohmann::json::array());

  j["summary"]["flaky"] = 1;
  j["kernels"][0].erase("skip_reason");
  EXPECT_TRUE(testing::is_rejected_naming(
      j, {"summary: 'flaky' is not one of", "kernels/0: 'skip_reason' is a required property"},
      dir));
}

TEST_F(WithoutAGpu, ProfilePrintsAProfileResultWithEveryKernelSkipped) {
  auto j = skipped_result(
      {"profile", "examples/kernels", "--kernel", "relu", "--full-set", "--json"}, "profile");
  EXPECT_EQ(j["metrics"], "full_set");
  ASSERT_EQ(j["kernels"].size(), 1u);
  EXPECT_EQ(j["kernels"][0]["kernel"], "relu");
  EXPECT_EQ(j["kernels"][0]["status"], "skipped");
  EXPECT_EQ(j["kernels"][0]["why_no_profile"], "no CUDA device");

  j["kernels"][0]["status"] = "profilled";
  EXPECT_TRUE(testing::is_rejected_naming(j, {"kernels/0/status: 'profilled' is not one of"}, dir));
}

}  // namespace
}  // namespace kblaster
