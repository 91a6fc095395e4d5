#include "profile/roofline.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

// 2 TB/s DRAM, 50 TFLOP/s FP32: round numbers so the floors are exact.
const MeasuredCeilings kCeilings{2e12, 50e12, std::nullopt};

TEST(Roofline, StreamingKernelSitsUnderTheMemoryFloor) {
  // 1 GB moved, no FLOPs, measured 1 ms: the floor is 0.5 ms, half the time.
  const RooflinePosition p = roofline_position(1e9, 0, 1e-3, kCeilings);
  EXPECT_DOUBLE_EQ(p.memory_floor_s, 5e-4);
  EXPECT_DOUBLE_EQ(p.compute_floor_s, 0);
  EXPECT_DOUBLE_EQ(p.floor_s, 5e-4);
  EXPECT_DOUBLE_EQ(p.share_of_limit, 0.5);
  EXPECT_EQ(p.limit, "memory");
  EXPECT_DOUBLE_EQ(p.arithmetic_intensity, 0);
}

TEST(Roofline, MatmulSitsUnderTheComputeFloor) {
  // 1 TFLOP over 1 GB: 20 ms of FP32 math against 0.5 ms of bytes, measured 40 ms.
  const RooflinePosition p = roofline_position(1e9, 1e12, 40e-3, kCeilings);
  EXPECT_DOUBLE_EQ(p.memory_floor_s, 5e-4);
  EXPECT_DOUBLE_EQ(p.compute_floor_s, 20e-3);
  EXPECT_DOUBLE_EQ(p.floor_s, 20e-3);
  EXPECT_DOUBLE_EQ(p.share_of_limit, 0.5);
  EXPECT_EQ(p.limit, "compute");
  EXPECT_DOUBLE_EQ(p.arithmetic_intensity, 1000);
}

TEST(Roofline, AtTheRoofTheShareIsOne) {
  EXPECT_DOUBLE_EQ(roofline_position(1e9, 0, 5e-4, kCeilings).share_of_limit, 1.0);
}

TEST(Roofline, EqualFloorsCountAsMemory) {
  // 25 GFLOP at 50 TFLOP/s = 0.5 ms = 1 GB at 2 TB/s.
  const RooflinePosition p = roofline_position(1e9, 25e9, 1e-3, kCeilings);
  EXPECT_DOUBLE_EQ(p.compute_floor_s, p.memory_floor_s);
  EXPECT_EQ(p.limit, "memory");
}

TEST(Roofline, UnmeasuredCeilingsAndTimeGiveZeroNotInfinity) {
  const RooflinePosition p = roofline_position(1e9, 1e12, 0, MeasuredCeilings{});
  EXPECT_DOUBLE_EQ(p.memory_floor_s, 0);
  EXPECT_DOUBLE_EQ(p.compute_floor_s, 0);
  EXPECT_DOUBLE_EQ(p.share_of_limit, 0);
  EXPECT_DOUBLE_EQ(roofline_position(0, 0, 1e-3, kCeilings).arithmetic_intensity, 0);
}

}  // namespace
}  // namespace kblaster
