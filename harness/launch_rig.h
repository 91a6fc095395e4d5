// The launch discipline every candidate launch follows (docs/harness-protocol.md):
// on a blocking stream S, flush L2, hold S behind a spinning kernel, read the
// SM clock, then time only the launcher's work between two events.
#pragma once

#include <cuda_runtime.h>

#include <functional>

#include "device_memory.h"

namespace kblaster::harness {

// The entry point a candidate object exports (the generated shim).
using EntryFn = int (*)(void** args, cudaStream_t stream);

struct LaunchTiming {
  double gpu_seconds = 0.0;   // between the start and stop events, over the launcher's calls
  double sm_mhz = 0.0;        // measured just before the start event; 0 if unknown
  int entry_status = 0;       // what kblaster_entry returned (a cudaError_t)
  bool hold_expired = false;  // the hold gave up: the launcher waited for the GPU itself
};

// Whether a launch holds S behind the spinning kernel (verified and timed
// launches) or runs straight away (a warm-up that may load modules, which
// synchronises the device and so cannot happen while S is held).
enum class Hold { yes, no };

class LaunchRig {
 public:
  // `l2_bytes` sizes the flush buffer (twice the L2).
  explicit LaunchRig(std::size_t l2_bytes);
  LaunchRig(const LaunchRig&) = delete;  // owns streams and device memory
  LaunchRig& operator=(const LaunchRig&) = delete;

  cudaStream_t stream() const { return launch_.get(); }  // S
  cudaStream_t side() const { return side_.get(); }      // never held; for reads while S is held

  // One launch: `prepare` enqueues restores/poisons on S, then the discipline
  // above; `while_held` runs on the host after the launcher returned and before
  // S is released. With `calls` > 1 the launcher is called that many times back to back between
  // the events, all queued while S is held (L2 flushed before the first only: nvbench's hot
  // batch), and gpu_seconds is their time over `calls`; the first call that fails ends them.
  // Throws HarnessFailure if the harness's own CUDA work fails.
  LaunchTiming launch(EntryFn entry, void** args, const std::function<void(cudaStream_t)>& prepare,
                      const std::function<void()>& while_held = {}, Hold hold = Hold::yes,
                      int calls = 1);
  // Enqueues the L2 flush on S, as launch does before the launcher's work.
  void flush_l2();

 private:
  Stream launch_{Stream::Kind::blocking};
  Stream side_{Stream::Kind::non_blocking};
  DeviceBuffer flush_;
  PinnedBuffer control_;  // [0] hold flag, [1] hold expired, then the clock reading
  Event start_, stop_;
  unsigned flush_round_ = 0;
};

}  // namespace kblaster::harness
