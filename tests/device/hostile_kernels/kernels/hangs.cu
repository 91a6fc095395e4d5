// Never finishes: every thread waits for a flag no one sets.
__device__ volatile int kblaster_test_never_set = 0;

__global__ void scale_kernel(float* out, const float* in, int n) {
  while (!kblaster_test_never_set) {
  }
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

void scale(float* out, const float* in, int n, cudaStream_t stream) {
  scale_kernel<<<(n + 255) / 256, 256, 0, stream>>>(out, in, n);
}
