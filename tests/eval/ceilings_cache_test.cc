// Ceilings are measured once per GPU model, then read from the cache file.
#include "eval/ceilings_cache.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "fake_harness_runner.h"
#include "gpu/device_probe.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

class CeilingsCacheTest : public ::testing::Test {
 protected:
  CeilingsCacheTest() {
    runner.on("peak_bandwidth", [](const auto&) {
      return nlohmann::json{{"bytes_per_s", 4.2e12}};
    });
    runner.on("peak_fp32", [](const auto&) { return nlohmann::json{{"flops_per_s", 54e12}}; });
    runner.on("peak_tensor", [](const auto&) { return nlohmann::json{{"flops_per_s", 700e12}}; });
  }
  Result<MeasuredCeilings> get(const std::string& gpu) {
    return measured_ceilings(client, gpu, file, session);
  }
  testing::FakeHarnessRunner runner;
  HarnessClient client{runner};
  testing::TempDir dir;
  std::filesystem::path file = dir.path() / "cache" / "ceilings.json";
  std::ostringstream out, progress;
  testing::NoDevice probe;
  testing::FakeClock clock;
  Session session{out, progress, probe, clock, {}};
};

TEST_F(CeilingsCacheTest, MeasuresOnceThenReadsTheFile) {
  auto first = get("NVIDIA H200");
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->dram_bytes_per_s, 4.2e12);
  EXPECT_EQ(*first->tensor_flops_per_s, 700e12);
  EXPECT_EQ(runner.ops(), (std::vector<std::string>{"peak_bandwidth", "peak_fp32", "peak_tensor"}));
  EXPECT_THAT(progress.str(), HasSubstr("saved to " + file.string()));
  auto second = get("NVIDIA H200");
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->fp32_flops_per_s, 54e12);
  EXPECT_EQ(runner.requests.size(), 3u) << "the second call must not measure";
  EXPECT_THAT(progress.str(), HasSubstr("cached in " + file.string()));
}

TEST_F(CeilingsCacheTest, AnotherModelIsMeasuredAndKeptBesideTheFirst) {
  ASSERT_TRUE(get("NVIDIA H200").ok());
  ASSERT_TRUE(get("NVIDIA B200").ok());
  EXPECT_EQ(runner.requests.size(), 6u);
  std::ifstream in(file);
  const auto j = nlohmann::json::parse(in);
  EXPECT_TRUE(j.contains("NVIDIA H200"));
  EXPECT_TRUE(j.contains("NVIDIA B200"));
}

TEST_F(CeilingsCacheTest, ABrokenFileIsMeasuredAgainAndSaysSo) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file) << "{ not json";
  ASSERT_TRUE(get("NVIDIA H200").ok());
  EXPECT_THAT(progress.str(), HasSubstr("does not parse; measuring again"));
  EXPECT_EQ(runner.requests.size(), 3u);
}

// The cache sits in the repository by default, so a pull request can make it a
// link to /dev/zero, which was read without end.
TEST_F(CeilingsCacheTest, ALinkToADeviceIsMeasuredAgainAndReplaced) {
  std::filesystem::create_directories(file.parent_path());
  std::filesystem::create_symlink("/dev/zero", file);
  ASSERT_TRUE(get("NVIDIA H200").ok());
  EXPECT_THAT(progress.str(),
              HasSubstr("ceilings cache " + file.string() +
                        ": a character device, not a regular file; kblaster reads only regular "
                        "files; measuring again"));
  EXPECT_EQ(runner.requests.size(), 3u);
  EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::symlink_status(file)))
      << "the link is replaced by the measured file";
}

TEST_F(CeilingsCacheTest, AFailedTensorCeilingIsLeftUnmeasured) {
  runner.fail_next("peak_tensor", HarnessFailure::refused, "no bf16 mma on this GPU");
  auto r = get("Old GPU");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->tensor_flops_per_s.has_value());
  EXPECT_THAT(progress.str(), HasSubstr("no tensor-core ceiling (no bf16 mma on this GPU)"));
  auto again = get("Old GPU");
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->tensor_flops_per_s.has_value());
}

TEST_F(CeilingsCacheTest, AFailedMeasurementIsTheHarnessError) {
  runner.fail_next("peak_fp32", HarnessFailure::crashed, "harness died");
  auto r = get("NVIDIA H200");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().message, HasSubstr("harness died"));
  EXPECT_FALSE(std::filesystem::exists(file));
}

}  // namespace
}  // namespace kblaster
