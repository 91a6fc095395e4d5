// A result's provenance: written, read back, and whether two results compare.
#include "core/provenance.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kblaster {
namespace {

using ::testing::HasSubstr;

Provenance on(const std::string& gpu, const std::string& driver = "580.65.06") {
  Provenance p;
  p.kblaster_version = "0.1.0";
  p.command_line = {"kblaster", "check", "--event"};
  p.repository = "/repo";
  p.head_sha = std::string(40, 'a');
  p.gpu = GpuIdentity{.name = gpu,
                      .uuid = "GPU-00112233-4455-6677-8899-aabbccddeeff",
                      .driver_version = driver,
                      .arch = "sm_90",
                      .clocks_locked = "unknown",
                      .sm_clock_mhz = std::nullopt};
  p.nvcc_version = "release 13.0, V13.0.48";
  p.seeds = {7, 8, 9};
  p.started_at = "2026-12-02T03:12:39Z";
  p.finished_at = "2026-12-02T03:13:01Z";
  return p;
}

TEST(Provenance, ReadsBackWhatItWrites) {
  const Provenance p = on("NVIDIA H200");
  auto back = provenance_from_json(to_json(p));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(to_json(*back), to_json(p));
  EXPECT_TRUE(to_json(p)["base_sha"].is_null());
}

TEST(Provenance, TheSmClockIsWrittenOnlyWhenATimingRecordedIt) {
  Provenance p = on("NVIDIA H200");
  EXPECT_FALSE(to_json(p)["gpu"].contains("sm_clock_mhz")) << "older results have none";
  p.gpu->sm_clock_mhz = 1980.0;
  const nlohmann::json j = to_json(p);
  EXPECT_EQ(j["gpu"]["sm_clock_mhz"], 1980.0);
  auto back = provenance_from_json(j);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->gpu->sm_clock_mhz, 1980.0);
}

TEST(Provenance, AMissingOrMistypedFieldIsNamed) {
  nlohmann::json j = to_json(on("NVIDIA H200"));
  j.erase("head_sha");
  auto missing = provenance_from_json(j);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::usage);
  EXPECT_THAT(missing.error().message, HasSubstr("no \"head_sha\""));
  j = to_json(on("NVIDIA H200"));
  j["nvcc_version"] = 13;
  EXPECT_THAT(provenance_from_json(j).error().message,
              HasSubstr("\"nvcc_version\" is not a string"));
}

TEST(Provenance, ResultsFromDifferentGpusOrDriversAreNotCompared) {
  EXPECT_EQ(not_comparable(on("NVIDIA H200"), on("NVIDIA H200")), std::nullopt);
  EXPECT_EQ(not_comparable(on("NVIDIA H200"), on("NVIDIA H100 80GB HBM3")),
            "different GPU models: NVIDIA H200 and NVIDIA H100 80GB HBM3");
  EXPECT_EQ(not_comparable(on("NVIDIA H200"), on("NVIDIA H200", "570.86.10")),
            "different drivers: 580.65.06 and 570.86.10");
  EXPECT_EQ(not_comparable(on("NVIDIA H200"), on("NVIDIA H200", "")),
            "different drivers: 580.65.06 and unknown")
      << "a driver the result does not know reads as unknown, not as nothing";
  Provenance no_gpu = on("NVIDIA H200");
  no_gpu.gpu.reset();
  EXPECT_THAT(not_comparable(no_gpu, on("NVIDIA H200")).value_or(""),
              HasSubstr("measured on a GPU and the other was not"));
  Provenance other_nvcc = on("NVIDIA H200");
  other_nvcc.nvcc_version = "release 12.8, V12.8.93";
  EXPECT_THAT(not_comparable(on("NVIDIA H200"), other_nvcc).value_or(""),
              HasSubstr("different nvcc"));
}

TEST(Provenance, TimestampsAreUtcToTheSecond) {
  const auto t = std::chrono::system_clock::time_point(std::chrono::seconds(1796181159));
  EXPECT_EQ(utc_timestamp(t), "2026-12-02T03:12:39Z");
}

}  // namespace
}  // namespace kblaster
