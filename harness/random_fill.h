// Fresh random inputs, generated on the device from (seed, buffer, index) with
// a counter-based hash, so any size fills in microseconds and a seed always
// gives the same bytes. Never zeros: that hides unwritten outputs.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "element_type.h"

namespace kblaster::harness {

struct Distribution {
  // generator: filled on the host by a function of the reference's file (Workload), not here;
  // state: a tensor of the PyTorch reference's module (`state`, its state_dict name), the same
  // for every seed (Workload::set_state).
  enum class Kind { normal, uniform, randint, generator, state } kind = Kind::normal;
  double a = 0.0;  // normal: mean; uniform/randint: low
  double b = 1.0;  // normal: stddev; uniform/randint: high (exclusive)
  std::string state;
};

// Fills `count` elements of `type` at device pointer `data` on `stream`.
// `stream_id` separates the buffers of one launch (e.g. the argument index).
void fill_random(ElementType type, void* data, std::size_t count, const Distribution& dist,
                 std::uint64_t seed, std::uint64_t stream_id, cudaStream_t stream);

}  // namespace kblaster::harness
