#include "guarded_buffer.h"

#include "cuda_check.h"

namespace kblaster::harness {

GuardedBuffer::GuardedBuffer(std::size_t bytes, std::size_t arg_index)
    : allocation_(kGuardBytes + bytes + kGuardBytes),
      bytes_(bytes),
      canary_before_(canary_bytes(arg_index, GuardSide::before)),
      canary_after_(canary_bytes(arg_index, GuardSide::after)) {
  for (GuardSide side : {GuardSide::before, GuardSide::after})
    KBH_CUDA(cudaMemcpy(guard(side), canary(side).data(), kGuardBytes, cudaMemcpyHostToDevice));
}

unsigned char* GuardedBuffer::data() const {
  if (!allocation_.get()) return nullptr;
  return static_cast<unsigned char*>(allocation_.get()) + kGuardBytes;
}

unsigned char* GuardedBuffer::guard(GuardSide side) const {
  return side == GuardSide::before ? data() - kGuardBytes : data() + bytes_;
}

void GuardedBuffer::arm(cudaStream_t stream) const {
  if (!allocation_.get()) return;
  for (GuardSide side : {GuardSide::before, GuardSide::after})
    KBH_CUDA(cudaMemcpyAsync(guard(side), canary(side).data(), kGuardBytes, cudaMemcpyHostToDevice,
                             stream));
}

void GuardedBuffer::read_guard(GuardSide side, unsigned char* host, cudaStream_t stream) const {
  if (!allocation_.get()) return;
  KBH_CUDA(cudaMemcpyAsync(host, guard(side), kGuardBytes, cudaMemcpyDeviceToHost, stream));
}

}  // namespace kblaster::harness
