#include <algorithm>
#include <chrono>
#include <thread>

#include "cuda_check.h"
#include "launch_rig.h"

namespace kblaster::harness {
namespace {

struct Control {
  volatile int release;
  volatile int expired;
  volatile int started;
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
  c->started = 1;
  __threadfence_system();
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
constexpr double kHoldStartLimitSeconds = 60.0;

// Releases a held stream however the launch ends, so a launcher that throws
// cannot leave the hold kernel spinning into the next launch.
class HoldRelease {
 public:
  explicit HoldRelease(Control* c) : c_(c) {}
  ~HoldRelease() { c_->release = 1; }
  HoldRelease(const HoldRelease&) = delete;  // releases exactly once
  HoldRelease& operator=(const HoldRelease&) = delete;

 private:
  Control* c_;
};

// Waits until the hold kernel runs, so that everything queued before it
// (restores, poisons, the L2 flush) has finished before the launcher is called.
void wait_for_hold(const Control* c) {
  const auto start = std::chrono::steady_clock::now();
  while (!c->started) {
    if (std::chrono::steady_clock::now() - start >
        std::chrono::duration<double>(kHoldStartLimitSeconds))
      throw HarnessFailure("the hold kernel did not start within 60 s");
    std::this_thread::yield();
  }
}

}  // namespace

LaunchRig::LaunchRig(std::size_t l2_bytes) : flush_(2 * l2_bytes), control_(sizeof(Control)) {}

void LaunchRig::flush_l2() {
  KBH_CUDA(cudaMemsetAsync(flush_.get(), static_cast<int>(++flush_round_ & 0xFF), flush_.bytes(),
                           launch_.get()));
}

LaunchTiming LaunchRig::launch(EntryFn entry, void** args,
                               const std::function<void(cudaStream_t)>& prepare,
                               const std::function<void()>& while_held, Hold hold, int calls) {
  auto* host = static_cast<Control*>(control_.get());
  auto* device = static_cast<Control*>(control_.device_pointer());
  cudaStream_t s = launch_.get();
  host->release = 0;
  host->expired = 0;
  host->started = 0;
  host->sm_mhz = 0.0;
  HoldRelease release(host);
  if (prepare) prepare(s);
  KBH_CUDA(
      cudaMemsetAsync(flush_.get(), static_cast<int>(++flush_round_ & 0xFF), flush_.bytes(), s));
  if (hold == Hold::yes) {
    hold_kernel<<<1, 1, 0, s>>>(device, kHoldLimitNs);
    KBH_CUDA(cudaGetLastError());
    wait_for_hold(host);
  }
  clock_kernel<<<1, 1, 0, s>>>(device);
  KBH_CUDA(cudaGetLastError());

  LaunchTiming t;
  KBH_CUDA(cudaEventRecord(start_.get(), s));
  for (int i = 0; i < calls && t.entry_status == 0; ++i) t.entry_status = entry(args, s);
  KBH_CUDA(cudaEventRecord(stop_.get(), s));
  if (while_held) while_held();
  host->release = 1;
  KBH_CUDA(cudaEventSynchronize(stop_.get()));
  KBH_CUDA(cudaStreamSynchronize(s));
  float ms = 0.0f;
  KBH_CUDA(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
  t.gpu_seconds = ms * 1e-3 / std::max(calls, 1);
  t.sm_mhz = host->sm_mhz;
  t.hold_expired = host->expired != 0;
  return t;
}

}  // namespace kblaster::harness
