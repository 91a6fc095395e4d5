// Row softmax over [rows, cols] with cooperative groups' warp reductions (max, then sum): a
// kernel whose build takes a few seconds (2-6 s, issue 21 B2's range) because of
// <cooperative_groups/reduce.h>; softmax_cub is the same with <cub/cub.cuh> (~10 s).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

constexpr int kSoftmaxCgThreads = 128;

// `v` reduced with `op` over the block, on every thread; `per_warp` holds one value per warp.
template <int kThreads, typename Op>
__device__ float across_block(float v, Op op, float* per_warp) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  v = cg::reduce(tile, v, op);
  if (tile.thread_rank() == 0) per_warp[threadIdx.x / 32] = v;
  __syncthreads();
  float r = per_warp[0];
  for (int w = 1; w < (kThreads + 31) / 32; ++w) r = op(r, per_warp[w]);
  __syncthreads();  // `per_warp` is reused by the next call
  return r;
}

template <int kThreads>
__global__ void softmax_cg_kernel(float* __restrict__ out, const float* __restrict__ inp,
                                  int cols) {
  __shared__ float per_warp[(kThreads + 31) / 32];
  const float* x = inp + static_cast<size_t>(blockIdx.x) * cols;
  float* y = out + static_cast<size_t>(blockIdx.x) * cols;

  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += kThreads) m = fmaxf(m, x[c]);
  const float mx = across_block<kThreads>(m, cg::greater<float>(), per_warp);

  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += kThreads) s += expf(x[c] - mx);
  const float inv = 1.0f / across_block<kThreads>(s, cg::plus<float>(), per_warp);

  for (int c = threadIdx.x; c < cols; c += kThreads) y[c] = expf(x[c] - mx) * inv;
}

cudaError_t softmax_cg(float* out, const float* inp, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return cudaSuccess;
  softmax_cg_kernel<kSoftmaxCgThreads><<<rows, kSoftmaxCgThreads>>>(out, inp, cols);
  return cudaGetLastError();
}
