// The device-side half of the guard check: one small kernel compares every
// guard of a workload with its canary, so checking after a launch costs one
// launch and one synchronisation whatever the number of buffers.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "device_memory.h"

namespace kblaster::harness {

class GuardScan {
 public:
  struct Guard {
    const unsigned char* device = nullptr;  // kGuardBytes of device memory
    std::uint32_t key = 0;                  // canary_key() of its buffer and side
  };

  GuardScan() = default;  // watches nothing
  // Uploads the table of `guards`; throws HarnessFailure if CUDA fails.
  explicit GuardScan(const std::vector<Guard>& guards);
  GuardScan(GuardScan&&) = default;  // move-only: it owns device and pinned memory
  GuardScan& operator=(GuardScan&&) = default;

  // Scans on `stream` and synchronises it: the indices, in table order, of the
  // guards that no longer hold their canary. Throws HarnessFailure if CUDA fails.
  std::vector<std::size_t> changed(cudaStream_t stream) const;

 private:
  std::size_t count_ = 0;
  DeviceBuffer table_;  // Guard[count_]
  PinnedBuffer flags_;  // unsigned[count_], set by the kernel for a changed guard
};

}  // namespace kblaster::harness
