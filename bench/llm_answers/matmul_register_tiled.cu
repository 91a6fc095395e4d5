// matmul_naive: C = A * B for row-major A [M, K], B [K, N], C [M, N], f32.
// Scripted answer (register_tiling): a block of 256 threads computes a 128x128 tile of C and
// each thread an 8x8 sub-tile held in registers. Per step of K, a thread reads 8 values of A and
// 8 of B from shared memory (as float4) and does 64 FMAs, where the naive kernel does two global
// loads per FMA. The K dimension is staged 8 at a time in double-buffered shared memory.
#include "kb_common.cuh"

namespace naive {

constexpr int kBM = 128;                             // rows of C per block
constexpr int kBN = 128;                             // columns of C per block
constexpr int kBK = 8;                               // K step staged in shared memory
constexpr int kTM = 8;                               // rows of C per thread
constexpr int kTN = 8;                               // columns of C per thread
constexpr int kThreads = (kBM / kTM) * (kBN / kTN);  // 256
constexpr int kPadM = kBM + 4;  // As row length: the transposed stores hit 32 distinct banks
constexpr int kLoadsA = kBM * kBK / kThreads;  // 4 elements of A per thread per step
constexpr int kLoadsB = kBK * kBN / kThreads;  // 4 elements of B per thread per step

static_assert(kBM * kBK % kThreads == 0 && kBK * kBN % kThreads == 0, "whole loads per thread");
static_assert(kTM == 8 && kTN == 8, "each thread reads two float4 of As and two of Bs");

// At most 128 registers a thread, so that two blocks fit on an SM (no spills at -O3).
__global__ void __launch_bounds__(kThreads, 2)
    matmul_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                  int M, int N, int K) {
  // As[k][m] (A transposed) and Bs[k][n]: a thread's 8 rows and 8 columns are two float4 each.
  __shared__ __align__(16) float As[2][kBK][kPadM];
  __shared__ __align__(16) float Bs[2][kBK][kBN];

  const int tid = threadIdx.x;
  const int tx = tid % (kBN / kTN);  // 0..15: columns tx*4 + {0..3} and 64 + tx*4 + {0..3}
  const int ty = tid / (kBN / kTN);  // 0..15: rows ty*4 + {0..3} and 64 + ty*4 + {0..3}
  const int block_row = blockIdx.y * kBM;
  const int block_col = blockIdx.x * kBN;

  // Global loads of one K step into registers; elements outside A or B are zero.
  float a_next[kLoadsA], b_next[kLoadsB];
  auto load_tiles = [&](int k0) {
#pragma unroll
    for (int i = 0; i < kLoadsA; ++i) {
      const int idx = tid + i * kThreads;  // 8 consecutive k of one row per 8 threads
      const int m = idx / kBK, k = idx % kBK;
      const int gm = block_row + m, gk = k0 + k;
      a_next[i] = (gm < M && gk < K) ? A[static_cast<size_t>(gm) * K + gk] : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < kLoadsB; ++i) {
      const int idx = tid + i * kThreads;  // consecutive threads, consecutive columns
      const int k = idx / kBN, n = idx % kBN;
      const int gk = k0 + k, gn = block_col + n;
      b_next[i] = (gk < K && gn < N) ? B[static_cast<size_t>(gk) * N + gn] : 0.0f;
    }
  };
  auto store_tiles = [&](int buf) {
#pragma unroll
    for (int i = 0; i < kLoadsA; ++i) {
      const int idx = tid + i * kThreads;
      As[buf][idx % kBK][idx / kBK] = a_next[i];
    }
#pragma unroll
    for (int i = 0; i < kLoadsB; ++i) {
      const int idx = tid + i * kThreads;
      Bs[buf][idx / kBN][idx % kBN] = b_next[i];
    }
  };

  float acc[kTM][kTN];
#pragma unroll
  for (int i = 0; i < kTM; ++i)
#pragma unroll
    for (int j = 0; j < kTN; ++j) acc[i][j] = 0.0f;

  // One K step from shared buffer `buf`, k in increasing order.
  auto compute_step = [&](int buf) {
#pragma unroll
    for (int k = 0; k < kBK; ++k) {
      float a[kTM], b[kTN];
      const float4 a_lo = *reinterpret_cast<const float4*>(&As[buf][k][ty * 4]);
      const float4 a_hi = *reinterpret_cast<const float4*>(&As[buf][k][kBM / 2 + ty * 4]);
      const float4 b_lo = *reinterpret_cast<const float4*>(&Bs[buf][k][tx * 4]);
      const float4 b_hi = *reinterpret_cast<const float4*>(&Bs[buf][k][kBN / 2 + tx * 4]);
      a[0] = a_lo.x, a[1] = a_lo.y, a[2] = a_lo.z, a[3] = a_lo.w;
      a[4] = a_hi.x, a[5] = a_hi.y, a[6] = a_hi.z, a[7] = a_hi.w;
      b[0] = b_lo.x, b[1] = b_lo.y, b[2] = b_lo.z, b[3] = b_lo.w;
      b[4] = b_hi.x, b[5] = b_hi.y, b[6] = b_hi.z, b[7] = b_hi.w;
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] += a[i] * b[j];
    }
  };

  const int steps = K > 0 ? kb::ceil_div(K, kBK) : 0;
  if (steps > 0) {
    load_tiles(0);
    store_tiles(0);
  }
  __syncthreads();

  for (int s = 0; s < steps; ++s) {
    const int buf = s & 1;
    // Start the next step's global loads before computing on this one.
    if (s + 1 < steps) load_tiles((s + 1) * kBK);
    // k runs in increasing order for every output, as in the naive kernel: the same sums in
    // the same order. Per k: 8 values of A, 8 of B, 64 FMAs.
    compute_step(buf);

    // The other buffer was last read in step s - 1, which every thread finished before the
    // barrier that ended it; the barrier below publishes the new tiles for step s + 1.
    if (s + 1 < steps) store_tiles(buf ^ 1);
    __syncthreads();
  }

  // Rows ty*4 + {0..3} and 64 + ty*4 + {0..3}, columns likewise; every bound is checked, since
  // neither M nor N need be a multiple of anything (a row of C need not be 16-byte aligned).
#pragma unroll
  for (int i = 0; i < kTM; ++i) {
    const int row = block_row + (i < 4 ? ty * 4 + i : kBM / 2 + ty * 4 + (i - 4));
    if (row >= M) continue;
    float* c_row = C + static_cast<size_t>(row) * N;
#pragma unroll
    for (int j = 0; j < kTN; ++j) {
      const int col = block_col + (j < 4 ? tx * 4 + j : kBN / 2 + tx * 4 + (j - 4));
      if (col < N) c_row[col] = acc[i][j];
    }
  }
}

cudaError_t matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  if (M <= 0 || N <= 0) return cudaSuccess;
  const dim3 grid(kb::ceil_div(N, kBN), kb::ceil_div(M, kBM));
  matmul_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
  return cudaGetLastError();
}

}  // namespace naive
