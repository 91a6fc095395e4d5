// Sigmoid, one thread per element.
__global__ void sigmoid_kernel(const float* x, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1.0f / (1.0f + expf(-x[i]));
}

void run_21_Sigmoid(const float* x, float* out) {
  const int n = 16 * 16384;
  sigmoid_kernel<<<(n + 255) / 256, 256>>>(x, out, n);
}
