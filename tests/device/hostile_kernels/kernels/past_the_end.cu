// Computes the right output, then writes 64 floats past its end: every element
// of `out` is right, but whatever lies after `out` is overwritten.
__global__ void scale_kernel(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
  else if (i < n + 64) out[i] = -1.0f;
}

void scale(float* out, const float* in, int n, cudaStream_t stream) {
  scale_kernel<<<(n + 64 + 255) / 256, 256, 0, stream>>>(out, in, n);
}
