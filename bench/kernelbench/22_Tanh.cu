// Tanh, one thread per element.
__global__ void tanh_kernel(const float* x, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tanhf(x[i]);
}

void run_22_Tanh(const float* x, float* out) {
  const int n = 16 * 16384;
  tanh_kernel<<<(n + 255) / 256, 256>>>(x, out, n);
}
