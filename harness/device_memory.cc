#include "device_memory.h"

#include "cuda_check.h"

namespace kblaster::harness {

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes > 0) KBH_CUDA(cudaMalloc(&ptr_, bytes));
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_) cudaFree(ptr_);  // nothing useful to do with a failure while unwinding
}

PinnedBuffer::PinnedBuffer(std::size_t bytes) : bytes_(bytes) {
  KBH_CUDA(cudaHostAlloc(&ptr_, bytes, cudaHostAllocMapped));
}

PinnedBuffer::~PinnedBuffer() {
  if (ptr_) cudaFreeHost(ptr_);
}

void* PinnedBuffer::device_pointer() const {
  void* device = nullptr;
  KBH_CUDA(cudaHostGetDevicePointer(&device, ptr_, 0));
  return device;
}

Event::Event() { KBH_CUDA(cudaEventCreate(&event_)); }
Event::~Event() { cudaEventDestroy(event_); }

Stream::Stream(Kind kind) {
  KBH_CUDA(cudaStreamCreateWithFlags(
      &stream_, kind == Kind::blocking ? cudaStreamDefault : cudaStreamNonBlocking));
}
Stream::~Stream() { cudaStreamDestroy(stream_); }

}  // namespace kblaster::harness
