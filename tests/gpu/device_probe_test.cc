#include "gpu/device_probe.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <iostream>

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// What a caller that takes a DeviceProbe sees; here, a machine with no GPU.
class NoDevice final : public DeviceProbe {
 public:
  DeviceInfo probe() override {
    DeviceInfo info;
    info.why_absent = "cuInit failed: CUDA_ERROR_NO_DEVICE";
    return info;
  }
};

TEST(DeviceProbe, ArchFollowsComputeCapability) {
  DeviceInfo info;
  info.present = true;
  info.cc_major = 9;
  info.cc_minor = 0;
  EXPECT_EQ(info.arch(), "sm_90");
  info.cc_major = 12;
  EXPECT_EQ(info.arch(), "sm_120");
  info.present = false;
  EXPECT_EQ(info.arch(), "");
}

// The H200 machine's open kernel module (2026-12-02) put "for x86_64" between the marker
// and the version; the first reading took "for" as the driver's version.
TEST(DeviceProbe, TheDriverVersionIsTheFirstNumberAfterTheKernelModule) {
  EXPECT_EQ(driver_version_from("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                                "580.159.04  Release Build  (nixbld@)  "),
            "580.159.04");
  EXPECT_EQ(driver_version_from("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue "
                                "Mar  5 22:23:56 UTC 2024"),
            "550.54.15");
  EXPECT_EQ(driver_version_from("no driver here"), "");
  EXPECT_EQ(driver_version_from("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64"), "");
}

TEST(DeviceProbe, ASubstituteAnswersForTheDriver) {
  NoDevice none;
  DeviceProbe& probe = none;
  EXPECT_FALSE(probe.probe().present);
  EXPECT_EQ(probe.probe().why_absent, "cuInit failed: CUDA_ERROR_NO_DEVICE");
}

TEST(DeviceProbe, MissingDriverLibraryIsAbsentWithAReason) {
  CudaDriverProbe probe(0, "libkblaster-no-such-driver.so.1");
  const DeviceInfo info = probe.probe();
  EXPECT_FALSE(info.present);
  EXPECT_THAT(info.why_absent,
              StartsWith("libkblaster-no-such-driver.so.1 not found (no NVIDIA driver)"));
}

TEST(DeviceProbe, RealDriverGivesADeviceOrAReason) {
  const DeviceInfo info = CudaDriverProbe().probe();
  if (info.present) {
    EXPECT_FALSE(info.name.empty());
    EXPECT_THAT(info.arch(), StartsWith("sm_"));
    EXPECT_GE(info.device_count, 1);
    std::cout << "device: " << info.name << " (" << info.arch() << ")\n";
  } else {
    EXPECT_FALSE(info.why_absent.empty());
    std::cout << "no device: " << info.why_absent << "\n";
  }
  CudaDriverProbe beyond(1 << 20);
  const DeviceInfo far = beyond.probe();
  EXPECT_FALSE(far.present);
  EXPECT_FALSE(far.why_absent.empty());
}

}  // namespace
}  // namespace kblaster
