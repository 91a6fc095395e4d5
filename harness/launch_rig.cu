#include "cuda_check.h"
#include "launch_rig.h"

namespace kblaster::harness {
namespace {

struct Control {
  volatile int release;
  volatile int expired;
  double sm_mhz;
};

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Spins until the host sets `release`, or gives up after `limit_ns` (a launcher
// that synchronises the device would otherwise wait for this kernel forever).
__global__ void hold_kernel(Control* c, unsigned long long limit_ns) {
  const unsigned long long t0 = global_ns();
  while (!c->release) {
    if (global_ns() - t0 > limit_ns) {
      c->expired = 1;
      return;
    }
  }
}

// The SM clock over a ~4 us spin: cycles counted by clock64 over global time.
__global__ void clock_kernel(Control* c) {
  const unsigned long long t0 = global_ns();
  const long long c0 = clock64();
  unsigned long long t1;
  do {
    t1 = global_ns();
  } while (t1 - t0 < 4000);
  const long long c1 = clock64();
  c->sm_mhz = static_cast<double>(c1 - c0) * 1e3 / static_cast<double>(t1 - t0);
}

constexpr unsigned long long kHoldLimitNs = 2'000'000'000ull;

}  // namespace

LaunchRig::LaunchRig(std::size_t l2_bytes) : flush_(2 * l2_bytes), control_(sizeof(Control)) {}

LaunchTiming LaunchRig::launch(EntryFn entry, void** args,
                               const std::function<void(cudaStream_t)>& prepare,
                               const std::function<void()>& while_held, Hold hold) {
  auto* host = static_cast<Control*>(control_.get());
  auto* device = static_cast<Control*>(control_.device_pointer());
  cudaStream_t s = launch_.get();
  host->release = 0;
  host->expired = 0;
  host->sm_mhz = 0.0;
  if (prepare) prepare(s);
  KBH_CUDA(
      cudaMemsetAsync(flush_.get(), static_cast<int>(++flush_round_ & 0xFF), flush_.bytes(), s));
  if (hold == Hold::yes) {
    hold_kernel<<<1, 1, 0, s>>>(device, kHoldLimitNs);
    KBH_CUDA(cudaGetLastError());
  }
  clock_kernel<<<1, 1, 0, s>>>(device);
  KBH_CUDA(cudaGetLastError());

  LaunchTiming t;
  KBH_CUDA(cudaEventRecord(start_.get(), s));
  t.entry_status = entry(args, s);
  KBH_CUDA(cudaEventRecord(stop_.get(), s));
  if (while_held) while_held();
  host->release = 1;
  KBH_CUDA(cudaEventSynchronize(stop_.get()));
  KBH_CUDA(cudaStreamSynchronize(s));
  float ms = 0.0f;
  KBH_CUDA(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
  t.gpu_seconds = ms * 1e-3;
  t.sm_mhz = host->sm_mhz;
  t.hold_expired = host->expired != 0;
  return t;
}

}  // namespace kblaster::harness
