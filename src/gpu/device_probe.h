// Which CUDA device this machine has, asked of the driver directly (dlopen of
// libcuda), so kblaster itself needs no CUDA libraries to start.
#pragma once

#include <string>
#include <string_view>

namespace kblaster {

struct DeviceInfo {
  bool present = false;
  std::string name;  // "NVIDIA H200"
  std::string uuid;  // "GPU-4fb3c2a1-…", as nvidia-smi writes it; "" when the driver has no answer
  std::string driver_version;  // "580.65.06" from /proc/driver/nvidia/version; "" when unknown
  int cc_major = 0;
  int cc_minor = 0;
  int device_count = 0;
  std::string why_absent;  // set when !present: "cuInit failed: CUDA_ERROR_NO_DEVICE"

  // "sm_90" for compute capability 9.0; empty when no device is present.
  std::string arch() const;
};

// The driver's version in the first line of /proc/driver/nvidia/version, the first
// word after "Kernel Module" that starts with a digit: "580.159.04" from "NVRM version:
// NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build …"; "" without one.
std::string driver_version_from(std::string_view proc_line);

// Asks what device runs the candidates. Tests substitute a fixed answer.
class DeviceProbe {
 public:
  virtual ~DeviceProbe() = default;
  // Never fails: an absent driver or device is a DeviceInfo with a reason.
  virtual DeviceInfo probe() = 0;
};

// The real probe: loads the driver library, runs cuInit and reads device
// `ordinal`'s name and compute capability. The library stays mapped once
// loaded (the driver's threads outlive the probe). Thread-safe.
class CudaDriverProbe final : public DeviceProbe {
 public:
  explicit CudaDriverProbe(int ordinal = 0, std::string library = "libcuda.so.1")
      : ordinal_(ordinal), library_(std::move(library)) {}
  DeviceInfo probe() override;

 private:
  int ordinal_;
  std::string library_;
};

}  // namespace kblaster
