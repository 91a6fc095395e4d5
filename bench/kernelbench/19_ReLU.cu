// ReLU, one thread per element.
__global__ void relu_kernel(const float* x, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaxf(x[i], 0.0f);
}

void run_19_ReLU(const float* x, float* out) {
  const int n = 16 * 16384;
  relu_kernel<<<(n + 255) / 256, 256>>>(x, out, n);
}
