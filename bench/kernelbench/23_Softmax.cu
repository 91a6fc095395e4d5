// Softmax over each row of 16 x 16384: one block of 1024 threads per row, the row's max and
// sum of exponentials reduced in shared memory.
constexpr int kThreads = 1024;

__device__ float block_reduce(float v, float* shared, bool take_max) {
  shared[threadIdx.x] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      shared[threadIdx.x] = take_max ? fmaxf(shared[threadIdx.x], shared[threadIdx.x + s])
                                     : shared[threadIdx.x] + shared[threadIdx.x + s];
    __syncthreads();
  }
  const float r = shared[0];
  __syncthreads();
  return r;
}

__global__ void softmax_kernel(const float* x, float* out, int cols) {
  __shared__ float shared[kThreads];
  const float* row = x + static_cast<long>(blockIdx.x) * cols;
  float* dst = out + static_cast<long>(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += kThreads) m = fmaxf(m, row[c]);
  m = block_reduce(m, shared, true);
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += kThreads) sum += expf(row[c] - m);
  sum = block_reduce(sum, shared, false);
  for (int c = threadIdx.x; c < cols; c += kThreads) dst[c] = expf(row[c] - m) / sum;
}

void run_23_Softmax(const float* x, float* out) {
  softmax_kernel<<<16, kThreads>>>(x, out, 16384);
}
