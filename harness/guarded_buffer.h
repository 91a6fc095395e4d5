// A device buffer with a canary-filled guard region before its start and after
// its end (guard_region.h): what the harness hands a candidate or a GPU
// reference, so a write out of bounds changes the guard instead of a neighbour.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "device_memory.h"
#include "guard_region.h"

namespace kblaster::harness {

// Move-only (it owns the allocation). Empty by default; otherwise it holds
// kGuardBytes + bytes + kGuardBytes, zero bytes included, so even a write to an
// empty buffer lands in a guard.
class GuardedBuffer {
 public:
  GuardedBuffer() = default;
  // Allocates and arms both guards with argument `arg_index`'s canaries
  // (synchronously); throws HarnessFailure if CUDA fails.
  GuardedBuffer(std::size_t bytes, std::size_t arg_index);

  // The data: kGuardBytes past the allocation's start, so 256-byte aligned.
  void* get() const { return data(); }
  std::size_t bytes() const { return bytes_; }
  std::size_t allocated_bytes() const { return allocation_.bytes(); }

  // Enqueues the canaries' upload into both guards on `stream`.
  void arm(cudaStream_t stream) const;
  // Enqueues a copy of the guard on `side` into `host` (kGuardBytes) on `stream`.
  void read_guard(GuardSide side, unsigned char* host, cudaStream_t stream) const;
  const std::vector<unsigned char>& canary(GuardSide side) const {
    return side == GuardSide::before ? canary_before_ : canary_after_;
  }
  // The device address of the guard on `side` (kGuardBytes); the buffer must not be empty.
  unsigned char* guard(GuardSide side) const;

 private:
  unsigned char* data() const;

  DeviceBuffer allocation_;
  std::size_t bytes_ = 0;
  std::vector<unsigned char> canary_before_, canary_after_;
};

}  // namespace kblaster::harness
