// `kblaster profile` on a real GPU under Nsight Compute, and its timing-only
// fallback when ncu is missing. Labelled `gpu`; skips, saying why, without a
// CUDA device. With KBLASTER_DEVICE_LOG_DIR set, the outputs are kept there.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "on_device.h"
#include "result_schema.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using testing::run_kblaster;

class ProfileOnDevice : public testing::OnDevice {
 protected:
  testing::TempDir cache;
};

TEST_F(ProfileOnDevice, AStreamingKernelIsDramSaturatedAndItsCsvIsKept) {
  auto r = run_kblaster({"profile", "examples/kernels", "--kernel", "axpy", "--json", "--cache-dir",
                         cache.path().string()});
  keep("profile_axpy", r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 1u);
  const auto& k = j["kernels"][0];
  EXPECT_EQ(k["state"]["key"], "memory.dram_saturated") << k["state"].dump();
  EXPECT_GT(k["total"]["dram_throughput_pct"].get<double>(), 60.0);
  EXPECT_GT(k["roofline"]["share_of_limit"].get<double>(), 0.6);
  EXPECT_TRUE(std::filesystem::exists(cache.path() / "profiles" / "axpy.csv"));
  EXPECT_TRUE(std::filesystem::exists(cache.path() / "ceilings.json"));
  EXPECT_EQ(k["status"], "profiled");
  EXPECT_EQ(j["provenance"]["seeds"].size(), 1u) << "the seed of the inputs profiled";
  EXPECT_TRUE(testing::is_valid_result(j, "profile", cache));
}

TEST_F(ProfileOnDevice, WithoutNcuItTimesTheKernelAndSaysWhy) {
  setenv("KBLASTER_NCU", "/nonexistent/ncu", 1);
  auto r = run_kblaster({"profile", "examples/kernels", "--kernel", "relu", "--json", "--cache-dir",
                         cache.path().string()});
  unsetenv("KBLASTER_NCU");
  keep("profile_without_ncu", r);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_THAT(r.err, ::testing::HasSubstr("no profile: $KBLASTER_NCU is /nonexistent/ncu"));
  EXPECT_THAT(r.err, ::testing::HasSubstr("; timing only"));
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["kernels"][0]["profile"].is_null());
  EXPECT_GT(j["kernels"][0]["measurement"]["median_s"].get<double>(), 0.0);
  EXPECT_EQ(j["kernels"][0]["status"], "timed_only");
  EXPECT_GT(j["provenance"]["gpu"]["sm_clock_mhz"].get<double>(), 0.0);
  EXPECT_TRUE(testing::is_valid_result(j, "profile", cache));
}

}  // namespace
}  // namespace kblaster
