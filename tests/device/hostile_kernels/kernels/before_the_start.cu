// Computes the right output, and also writes the 64 floats just before its
// start: every element of `out` is right, but whatever lies before it is overwritten.
__global__ void scale_kernel(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
  if (i < 64) out[i - 64] = -1.0f;
}

void scale(float* out, const float* in, int n, cudaStream_t stream) {
  scale_kernel<<<(n + 255) / 256, 256, 0, stream>>>(out, in, n);
}
