// softmax_slow: the same function as softmax.cu, written naively for demonstrations:
// one thread per row, three passes over global memory, uncoalesced loads. Latency-bound.
#include <cuda_runtime.h>

__global__ void softmax_slow_kernel(float* out, const float* inp, int rows, int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* x = inp + static_cast<size_t>(r) * cols;
  float* y = out + static_cast<size_t>(r) * cols;

  float m = -INFINITY;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, x[c]);
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += expf(x[c] - m);
  for (int c = 0; c < cols; ++c) y[c] = expf(x[c] - m) / s;
}

void softmax_slow(float* out, const float* inp, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  constexpr int kThreads = 32;
  softmax_slow_kernel<<<rows / kThreads + (rows % kThreads != 0), kThreads>>>(out, inp, rows, cols);
}
