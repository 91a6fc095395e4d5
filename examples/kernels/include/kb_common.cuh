// Helpers shared by several example kernels: integer ceil-division, a CUDA error
// check for launchers that return cudaError_t, and warp/block float reductions.
#pragma once

#include <cuda_runtime.h>

// Evaluates `call`; on failure returns its error from the enclosing function,
// which must return cudaError_t.
#define KB_CUDA_CHECK(call)                     \
  do {                                          \
    const cudaError_t kb_err_ = (call);         \
    if (kb_err_ != cudaSuccess) return kb_err_; \
  } while (0)

namespace kb {

// ceil(a / b) for a >= 0 and b > 0, without overflow near the type's maximum.
template <typename T>
__host__ __device__ constexpr T ceil_div(T a, T b) {
  return a / b + (a % b != 0);
}

namespace detail {

struct Add {
  __device__ float operator()(float a, float b) const { return a + b; }
};
struct Max {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

template <typename Op>
__device__ __forceinline__ float warp_reduce(float v, Op op) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// blockDim.x must be a multiple of 32. Every warp reduces the per-warp results in the
// same order, so all threads get the same, reproducible value.
template <typename Op>
__device__ __forceinline__ float block_reduce(float v, float* scratch, float identity, Op op) {
  const int lane = threadIdx.x & 31;
  const int warps = static_cast<int>(blockDim.x >> 5);
  v = warp_reduce(v, op);
  __syncthreads();  // readers of a previous call are done with scratch
  if (lane == 0) scratch[threadIdx.x >> 5] = v;
  __syncthreads();
  return warp_reduce(lane < warps ? scratch[lane] : identity, op);
}

}  // namespace detail

__device__ __forceinline__ float warp_sum(float v) { return detail::warp_reduce(v, detail::Add{}); }
__device__ __forceinline__ float warp_max(float v) { return detail::warp_reduce(v, detail::Max{}); }

// Reduce over the whole block; every thread gets the result. `scratch` is 32 floats
// of shared memory; blockDim.x must be a multiple of 32.
__device__ __forceinline__ float block_sum(float v, float* scratch) {
  return detail::block_reduce(v, scratch, 0.0f, detail::Add{});
}
__device__ __forceinline__ float block_max(float v, float* scratch) {
  return detail::block_reduce(v, scratch, -INFINITY, detail::Max{});
}

}  // namespace kb
