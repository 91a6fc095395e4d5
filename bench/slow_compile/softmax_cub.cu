// Row softmax over [rows, cols] with cub's block reductions (max, then sum): a kernel whose
// build takes seconds because of <cub/cub.cuh>, for issue 21 B2's GPU-idle measurement.
#include <cub/cub.cuh>

constexpr int kSoftmaxThreads = 128;

struct MaxOf {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

template <int kThreads>
__global__ void softmax_cub_kernel(float* __restrict__ out, const float* __restrict__ inp,
                                   int cols) {
  using Reduce = cub::BlockReduce<float, kThreads>;
  __shared__ typename Reduce::TempStorage storage;
  __shared__ float shared_max, shared_sum;
  const float* x = inp + static_cast<size_t>(blockIdx.x) * cols;
  float* y = out + static_cast<size_t>(blockIdx.x) * cols;

  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += kThreads) m = fmaxf(m, x[c]);
  const float row_max = Reduce(storage).Reduce(m, MaxOf());
  if (threadIdx.x == 0) shared_max = row_max;
  __syncthreads();
  const float mx = shared_max;

  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += kThreads) s += expf(x[c] - mx);
  const float sum = Reduce(storage).Sum(s);
  if (threadIdx.x == 0) shared_sum = sum;
  __syncthreads();
  const float inv = 1.0f / shared_sum;

  for (int c = threadIdx.x; c < cols; c += kThreads) y[c] = expf(x[c] - mx) * inv;
}

cudaError_t softmax_cub(float* out, const float* inp, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return cudaSuccess;
  softmax_cub_kernel<kSoftmaxThreads><<<rows, kSoftmaxThreads>>>(out, inp, cols);
  return cudaGetLastError();
}
