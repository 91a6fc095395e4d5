// layernorm: out[n, :] = (inp[n, :] - mean) / sqrt(var + 1e-5) * weight + bias over [N, C].
// One block per row; mean, then variance about the mean (two passes). Memory-bound.
#include "kb_common.cuh"

constexpr int kLayernormThreads = 256;

__global__ void layernorm_kernel(float* __restrict__ out, const float* __restrict__ inp,
                                 const float* __restrict__ weight, const float* __restrict__ bias,
                                 int C) {
  __shared__ float scratch[32];
  const float* x = inp + static_cast<size_t>(blockIdx.x) * C;
  float* y = out + static_cast<size_t>(blockIdx.x) * C;

  float s = 0.0f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) s += x[c];
  const float mean = kb::block_sum(s, scratch) / C;

  float v = 0.0f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    const float d = x[c] - mean;
    v += d * d;
  }
  const float rstd = rsqrtf(kb::block_sum(v, scratch) / C + 1e-5f);

  for (int c = threadIdx.x; c < C; c += blockDim.x)
    y[c] = (x[c] - mean) * rstd * weight[c] + bias[c];
}

cudaError_t layernorm_forward(float* out, const float* inp, const float* weight, const float* bias,
                              int N, int C) {
  if (N <= 0 || C <= 0) return cudaSuccess;
  layernorm_kernel<<<N, kLayernormThreads>>>(out, inp, weight, bias, C);
  return cudaGetLastError();
}
