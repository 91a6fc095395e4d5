// matmul_naive: C = A * B for row-major A [M, K], B [K, N], C [M, N], f32.
// Scripted answer (shared_memory_tiling): 32x32 tiles of A and B are staged in shared memory,
// so each global element is read once per tile instead of once per output element.
// A block of 32x8 threads computes a 32x32 tile of C, each thread four rows of one column.
#include "kb_common.cuh"

namespace naive {

constexpr int kTile = 32;  // tile edge: rows of A, columns of B and the K step
constexpr int kRowsPerThread = 4;
constexpr int kBlockRows = kTile / kRowsPerThread;  // blockDim.y
static_assert(kTile % 4 == 0, "As rows are read as float4");

__global__ void matmul_kernel(const float* __restrict__ A, const float* __restrict__ B,
                              float* __restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) float As[kTile][kTile];  // As[row][k]: rows read as float4 broadcasts
  __shared__ __align__(16) float Bs[kTile][kTile];  // Bs[k][col]: lane tx reads bank tx

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * kTile;
  const int col = blockIdx.x * kTile + tx;

  float acc[kRowsPerThread] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int k0 = 0; k0 < K; k0 += kTile) {
    // Stage the tiles; elements outside A or B are zero, so tails add nothing.
#pragma unroll
    for (int i = 0; i < kRowsPerThread; ++i) {
      const int r = ty + i * kBlockRows;
      const int a_row = row0 + r, a_col = k0 + tx;
      As[r][tx] = (a_row < M && a_col < K) ? A[static_cast<size_t>(a_row) * K + a_col] : 0.0f;
      const int b_row = k0 + r;
      Bs[r][tx] = (b_row < K && col < N) ? B[static_cast<size_t>(b_row) * N + col] : 0.0f;
    }
    __syncthreads();
    // Four k at a time: one float4 of each of the thread's rows of As (a broadcast: the whole
    // warp reads the same row) and four values of Bs. k still runs in increasing order for
    // every output, as in the naive kernel: the same sums in the same order.
#pragma unroll
    for (int k = 0; k < kTile; k += 4) {
      const float b0 = Bs[k][tx], b1 = Bs[k + 1][tx], b2 = Bs[k + 2][tx], b3 = Bs[k + 3][tx];
#pragma unroll
      for (int i = 0; i < kRowsPerThread; ++i) {
        const float4 a = *reinterpret_cast<const float4*>(&As[ty + i * kBlockRows][k]);
        acc[i] += a.x * b0;
        acc[i] += a.y * b1;
        acc[i] += a.z * b2;
        acc[i] += a.w * b3;
      }
    }
    __syncthreads();
  }

  if (col >= N) return;
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
    const int row = row0 + ty + i * kBlockRows;
    if (row < M) C[static_cast<size_t>(row) * N + col] = acc[i];
  }
}

cudaError_t matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return cudaSuccess;
  const dim3 block(kTile, kBlockRows);
  const dim3 grid(kb::ceil_div(N, kTile), kb::ceil_div(M, kTile));
  matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
  return cudaGetLastError();
}

}  // namespace naive
