// matmul_naive: C = A * B for row-major A [M, K], B [K, N], C [M, N], f32.
// One thread per output element, no tiling: a compute-bound baseline with much to gain.
#include "kb_common.cuh"

namespace naive {

__global__ void matmul_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[static_cast<size_t>(row) * K + k] * B[static_cast<size_t>(k) * N + col];
  C[static_cast<size_t>(row) * N + col] = acc;
}

cudaError_t matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return cudaSuccess;
  const dim3 block(32, 32);
  const dim3 grid(kb::ceil_div(N, 32), kb::ceil_div(M, 32));
  matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
  return cudaGetLastError();
}

}  // namespace naive
