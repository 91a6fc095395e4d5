// scale_rows: out[r, c] = scale[r] * inp[r, c] over a row-major [rows, cols] matrix.
// Memory-bound. The block size is a launcher argument, and the launcher is overloaded
// for float and double; the spec selects the float one by its argument types.
#include "kb_common.cuh"

template <typename T>
__global__ void scale_rows_kernel(T* __restrict__ out, const T* __restrict__ inp,
                                  const T* __restrict__ scale, int cols, size_t total) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < total) out[i] = scale[i / cols] * inp[i];
}

template <typename T>
cudaError_t launch_scale_rows(T* out, const T* inp, const T* scale, int rows, int cols,
                              int block_size, cudaStream_t stream) {
  if (block_size <= 0 || block_size > 1024) return cudaErrorInvalidValue;
  if (rows <= 0 || cols <= 0) return cudaSuccess;
  const size_t total = static_cast<size_t>(rows) * cols;
  const unsigned blocks =
      static_cast<unsigned>(kb::ceil_div(total, static_cast<size_t>(block_size)));
  scale_rows_kernel<<<blocks, block_size, 0, stream>>>(out, inp, scale, cols, total);
  return cudaGetLastError();
}

cudaError_t scale_rows(float* out, const float* inp, const float* scale, int rows, int cols,
                       int block_size, cudaStream_t stream) {
  return launch_scale_rows(out, inp, scale, rows, cols, block_size, stream);
}

cudaError_t scale_rows(double* out, const double* inp, const double* scale, int rows, int cols,
                       int block_size, cudaStream_t stream) {
  return launch_scale_rows(out, inp, scale, rows, cols, block_size, stream);
}
