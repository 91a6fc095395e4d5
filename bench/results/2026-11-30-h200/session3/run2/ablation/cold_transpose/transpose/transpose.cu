// transpose: out [cols, rows] = inp [rows, cols]^T, row-major f32.
// Tiled through shared memory (padded against bank conflicts). Memory-bound.
#include "kb_common.cuh"

#ifndef BLOCK
#define BLOCK 32  // tile edge; tunable (kblaster passes -DBLOCK=N)
#endif

constexpr int kTileRows = 8;  // threads per tile column; each copies BLOCK / kTileRows elements
static_assert(BLOCK % kTileRows == 0, "BLOCK must be a multiple of 8");

__global__ void transpose_kernel(float* __restrict__ out, const float* __restrict__ inp, int rows,
                                 int cols) {
  __shared__ float tile[BLOCK][BLOCK + 1];
  const int in_col = blockIdx.x * BLOCK + threadIdx.x;
  for (int j = threadIdx.y; j < BLOCK; j += kTileRows) {
    const int in_row = blockIdx.y * BLOCK + j;
    if (in_row < rows && in_col < cols)
      tile[j][threadIdx.x] = inp[static_cast<size_t>(in_row) * cols + in_col];
  }
  __syncthreads();
  const int out_col = blockIdx.y * BLOCK + threadIdx.x;
  for (int j = threadIdx.y; j < BLOCK; j += kTileRows) {
    const int out_row = blockIdx.x * BLOCK + j;
    if (out_row < cols && out_col < rows)
      out[static_cast<size_t>(out_row) * rows + out_col] = tile[threadIdx.x][j];
  }
}

cudaError_t transpose(float* out, const float* inp, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return cudaSuccess;
  const dim3 block(BLOCK, kTileRows);
  const dim3 grid(kb::ceil_div(cols, BLOCK), kb::ceil_div(rows, BLOCK));
  transpose_kernel<<<grid, block>>>(out, inp, rows, cols);
  return cudaGetLastError();
}
