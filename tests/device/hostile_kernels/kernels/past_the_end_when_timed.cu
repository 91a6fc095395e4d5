// Honest for its first 40 calls, which outlast verification (3 launches per seed,
// 3 seeds, 2 sizes), then writes 64 floats past the end of `out` on every call:
// only the guard check of the timed launches can catch it.
__global__ void scale_kernel(float* out, const float* in, int n, int overstep) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
  else if (i < n + overstep) out[i] = -1.0f;
}

void scale(float* out, const float* in, int n, cudaStream_t stream) {
  static int calls = 0;
  const int overstep = ++calls > 40 ? 64 : 0;
  scale_kernel<<<(n + 64 + 255) / 256, 256, 0, stream>>>(out, in, n, overstep);
}
