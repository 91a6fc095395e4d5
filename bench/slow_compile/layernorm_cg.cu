// layernorm over [N, C] with cooperative groups' warp reductions: including
// <cooperative_groups/reduce.h> makes nvcc take a few seconds per build (2-6 s, the range of
// issue 21 B2's real kernels), where <cub/cub.cuh> (layernorm_cub) takes about 10 s on the H200's
// host. One block per row, two passes.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

constexpr int kLayernormCgThreads = 256;

// The sum of `v` over the block's threads, on every thread; `partial` holds one value per warp.
template <int kThreads>
__device__ float block_sum(float v, float* partial) {
  const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  v = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) partial[threadIdx.x / 32] = v;
  __syncthreads();
  float total = 0.0f;
  for (int w = 0; w < (kThreads + 31) / 32; ++w) total += partial[w];
  __syncthreads();  // `partial` is reused by the next call
  return total;
}

template <int kThreads>
__global__ void layernorm_cg_kernel(float* __restrict__ out, const float* __restrict__ inp,
                                    const float* __restrict__ weight,
                                    const float* __restrict__ bias, int C) {
  __shared__ float partial[(kThreads + 31) / 32];
  const float* x = inp + static_cast<size_t>(blockIdx.x) * C;
  float* y = out + static_cast<size_t>(blockIdx.x) * C;

  float s = 0.0f;
  for (int c = threadIdx.x; c < C; c += kThreads) s += x[c];
  const float mean = block_sum<kThreads>(s, partial) / C;

  float v = 0.0f;
  for (int c = threadIdx.x; c < C; c += kThreads) {
    const float d = x[c] - mean;
    v += d * d;
  }
  const float rstd = rsqrtf(block_sum<kThreads>(v, partial) / C + 1e-5f);

  for (int c = threadIdx.x; c < C; c += kThreads)
    y[c] = (x[c] - mean) * rstd * weight[c] + bias[c];
}

cudaError_t layernorm_cg(float* out, const float* inp, const float* weight, const float* bias,
                         int N, int C) {
  if (N <= 0 || C <= 0) return cudaSuccess;
  layernorm_cg_kernel<kLayernormCgThreads><<<N, kLayernormCgThreads>>>(out, inp, weight, bias, C);
  return cudaGetLastError();
}
