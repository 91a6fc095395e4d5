// reduce_sum: out[0] = sum of inp[0, n). Memory-bound. Two passes in a fixed order
// (per-block partials, then one block over them), so the result is reproducible bit for bit.
#include <algorithm>

#include "kb_common.cuh"

constexpr int kReduceThreads = 256;
constexpr int kReduceMaxBlocks = 1024;

// Pass-1 partials. Static, so the launcher allocates nothing; it also means concurrent
// calls on different streams would race, which this example never makes.
__device__ float reduce_sum_partials[kReduceMaxBlocks];

__global__ void reduce_sum_blocks(const float* __restrict__ inp, int n) {
  __shared__ float scratch[32];
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  float s = 0.0f;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < static_cast<size_t>(n); i += stride)
    s += inp[i];
  s = kb::block_sum(s, scratch);
  if (threadIdx.x == 0) reduce_sum_partials[blockIdx.x] = s;
}

__global__ void reduce_sum_final(float* out, int partials) {
  __shared__ float scratch[32];
  float s = 0.0f;
  for (int i = threadIdx.x; i < partials; i += blockDim.x) s += reduce_sum_partials[i];
  s = kb::block_sum(s, scratch);
  if (threadIdx.x == 0) out[0] = s;
}

cudaError_t reduce_sum(float* out, const float* inp, int n) {
  const int blocks = n > 0 ? std::min(kb::ceil_div(n, kReduceThreads), kReduceMaxBlocks) : 0;
  if (blocks > 0) {
    reduce_sum_blocks<<<blocks, kReduceThreads>>>(inp, n);
    KB_CUDA_CHECK(cudaGetLastError());
  }
  reduce_sum_final<<<1, kReduceMaxBlocks>>>(out, blocks);
  return cudaGetLastError();
}
