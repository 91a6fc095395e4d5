#include <cstring>

#include "cuda_check.h"
#include "guard_region.h"
#include "guard_scan.h"

namespace kblaster::harness {
namespace {

// One block per guard: flags[g] = 1 if any byte of guard g differs from its canary.
__global__ void scan_guards(const GuardScan::Guard* table, unsigned* flags) {
  const GuardScan::Guard g = table[blockIdx.x];
  bool changed = false;
  for (std::size_t i = threadIdx.x; i < kGuardBytes; i += blockDim.x)
    changed |= g.device[i] != canary_byte(g.key, i);
  if (__syncthreads_or(changed) && threadIdx.x == 0) flags[blockIdx.x] = 1;
}

}  // namespace

GuardScan::GuardScan(const std::vector<Guard>& guards) : count_(guards.size()) {
  if (count_ == 0) return;
  table_ = DeviceBuffer(count_ * sizeof(Guard));
  flags_ = PinnedBuffer(count_ * sizeof(unsigned));
  KBH_CUDA(cudaMemcpy(table_.get(), guards.data(), table_.bytes(), cudaMemcpyHostToDevice));
}

std::vector<std::size_t> GuardScan::changed(cudaStream_t stream) const {
  std::vector<std::size_t> out;
  if (count_ == 0) return out;
  auto* flags = static_cast<volatile unsigned*>(flags_.get());
  for (std::size_t g = 0; g < count_; ++g) flags[g] = 0;
  scan_guards<<<static_cast<unsigned>(count_), 256, 0, stream>>>(
      static_cast<const Guard*>(table_.get()), static_cast<unsigned*>(flags_.device_pointer()));
  KBH_CUDA(cudaGetLastError());
  KBH_CUDA(cudaStreamSynchronize(stream));
  for (std::size_t g = 0; g < count_; ++g)
    if (flags[g] != 0) out.push_back(g);
  return out;
}

}  // namespace kblaster::harness
