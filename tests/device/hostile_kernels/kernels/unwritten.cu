// Forgets the tail: the last n % 256 elements (and one full block) are never written.
__global__ void scale_kernel(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

void scale(float* out, const float* in, int n, cudaStream_t stream) {
  int blocks = n / 256;  // rounds down: the tail is skipped
  if (blocks > 1) --blocks;
  if (blocks > 0) scale_kernel<<<blocks, 256, 0, stream>>>(out, in, n);
}
