// softmax: out[r, :] = softmax(inp[r, :]) over a row-major [rows, cols] matrix.
// One block per row, block-wide max and sum by warp shuffles. Memory-bound.
#include "kb_common.cuh"

constexpr int kSoftmaxThreads = 256;

__global__ void softmax_kernel(float* __restrict__ out, const float* __restrict__ inp, int cols) {
  __shared__ float scratch[32];
  const float* x = inp + static_cast<size_t>(blockIdx.x) * cols;
  float* y = out + static_cast<size_t>(blockIdx.x) * cols;

  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[c]);
  m = kb::block_max(m, scratch);

  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(x[c] - m);
  const float inv = 1.0f / kb::block_sum(s, scratch);

  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[c] = expf(x[c] - m) * inv;
}

cudaError_t softmax(float* out, const float* inp, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return cudaSuccess;
  softmax_kernel<<<rows, kSoftmaxThreads>>>(out, inp, cols);
  return cudaGetLastError();
}
