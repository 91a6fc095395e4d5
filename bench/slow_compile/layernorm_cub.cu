// layernorm over [N, C] with cub's block reductions, as real kernels write it: including
// <cub/cub.cuh> makes nvcc take seconds per build, which is what this kit is for (issue 21 B2:
// the GPU must not wait for the search's compiles). One block per row, two passes.
#include <cub/cub.cuh>

constexpr int kLayernormThreads = 256;

template <int kThreads>
__global__ void layernorm_cub_kernel(float* __restrict__ out, const float* __restrict__ inp,
                                     const float* __restrict__ weight,
                                     const float* __restrict__ bias, int C) {
  using Reduce = cub::BlockReduce<float, kThreads>;
  __shared__ typename Reduce::TempStorage storage;
  __shared__ float shared_mean, shared_rstd;
  const float* x = inp + static_cast<size_t>(blockIdx.x) * C;
  float* y = out + static_cast<size_t>(blockIdx.x) * C;

  float s = 0.0f;
  for (int c = threadIdx.x; c < C; c += kThreads) s += x[c];
  const float sum = Reduce(storage).Sum(s);
  if (threadIdx.x == 0) shared_mean = sum / C;
  __syncthreads();
  const float mean = shared_mean;

  float v = 0.0f;
  for (int c = threadIdx.x; c < C; c += kThreads) {
    const float d = x[c] - mean;
    v += d * d;
  }
  const float var = Reduce(storage).Sum(v);
  if (threadIdx.x == 0) shared_rstd = rsqrtf(var / C + 1e-5f);
  __syncthreads();
  const float rstd = shared_rstd;

  for (int c = threadIdx.x; c < C; c += kThreads)
    y[c] = (x[c] - mean) * rstd * weight[c] + bias[c];
}

cudaError_t layernorm_cub(float* out, const float* inp, const float* weight, const float* bias,
                          int N, int C) {
  if (N <= 0 || C <= 0) return cudaSuccess;
  layernorm_cub_kernel<kLayernormThreads><<<N, kLayernormThreads>>>(out, inp, weight, bias, C);
  return cudaGetLastError();
}
