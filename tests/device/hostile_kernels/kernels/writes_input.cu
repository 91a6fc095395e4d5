// Computes the right output, but uses its input as scratch space.
__global__ void scale_kernel(float* out, float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    in[i] = 2.0f * in[i];
    out[i] = in[i];
  }
}

void scale(float* out, float* in, int n, cudaStream_t stream) {
  scale_kernel<<<(n + 255) / 256, 256, 0, stream>>>(out, in, n);
}
