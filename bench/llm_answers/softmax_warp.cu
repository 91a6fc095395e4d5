// softmax_slow: the same function as softmax.cu: out[r, :] = softmax(inp[r, :]) over a
// row-major [rows, cols] matrix.
// Scripted answer (warp_shuffle_reduction): one warp per row instead of one thread per row.
// The 32 lanes read consecutive elements (coalesced 128-byte rows of loads, where the naive
// kernel's lanes were `cols` floats apart), keep an online maximum and sum of exponentials in
// one pass, and combine them across the warp with shuffles; a second pass writes the outputs.
// expf and the division are the IEEE ones, as before: only the order of the sum changes.
#include <cuda_runtime.h>

constexpr int kWarpsPerBlock = 8;
constexpr unsigned kFullMask = 0xffffffffu;

__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    softmax_slow_kernel(float* __restrict__ out, const float* __restrict__ inp, int rows,
                        int cols) {
  const int lane = threadIdx.x & 31;
  const int r = blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
  if (r >= rows) return;  // the whole warp leaves together: the shuffles below see 32 lanes
  const float* x = inp + static_cast<size_t>(r) * cols;
  float* y = out + static_cast<size_t>(r) * cols;

  // Online maximum and sum over this lane's elements: s is the sum of expf(x - m) so far.
  float m = -INFINITY, s = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    const float v = x[c];
    if (v > m) {
      s = s * expf(m - v) + 1.0f;  // expf(-inf) = 0 on the first element
      m = v;
    } else if (v != -INFINITY) {  // adds expf(-inf) = 0; skipping it avoids -inf - -inf
      s += expf(v - m);
    }
  }

  // Combine the lanes: the row maximum, then each lane's sum rescaled to it.
  float row_max = m;
  for (int offset = 16; offset > 0; offset >>= 1)
    row_max = fmaxf(row_max, __shfl_xor_sync(kFullMask, row_max, offset));
  // A lane with no element (cols < 32) has s = 0 and adds nothing.
  float sum = s > 0.0f ? s * expf(m - row_max) : 0.0f;
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_xor_sync(kFullMask, sum, offset);

  for (int c = lane; c < cols; c += 32) y[c] = expf(x[c] - row_max) / sum;
}

void softmax_slow(float* out, const float* inp, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  constexpr int kThreads = kWarpsPerBlock * 32;
  const int blocks = rows / kWarpsPerBlock + (rows % kWarpsPerBlock != 0);
  softmax_slow_kernel<<<blocks, kThreads>>>(out, inp, rows, cols);
}
