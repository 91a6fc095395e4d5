// out = 2 * in over a large array: a memory-bound kernel whose DRAM traffic is
// 8 bytes per element. EXTRA_PERMILLE adds that many thousandths of extra
// traffic (reads of a zeroed scratch buffer that cannot change the result), so
// a variant is slower while computing the same function. The slowdown is not
// the share of extra bytes (on the H200 about 0.44 of it: part of the extra
// reads overlap), so bench/results/ gives each variant's measured ratio. For
// studying which slowdowns `kblaster compare` can tell apart.
#ifndef EXTRA_PERMILLE
#define EXTRA_PERMILLE 0
#endif

__global__ void stream_scale_kernel(float* __restrict__ out, const float* __restrict__ in,
                                    const float* __restrict__ pad, int n, int pad_n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = 2.0f * in[i];
  if (i < pad_n && pad[i] != 0.0f) v = -v;  // pad is all zeros: the read happens, the branch never does
  out[i] = v;
}

void stream_scale(float* out, const float* in, int n) {
  static float* pad = nullptr;
  static int pad_n = 0;
  // Extra bytes 4 * want = EXTRA_PERMILLE / 1000 of the 8 * n the kernel must move.
  const int want = static_cast<int>(static_cast<long long>(n) * 2 * EXTRA_PERMILLE / 1000);
  if (want > pad_n) {
    cudaFree(pad);
    cudaMalloc(&pad, sizeof(float) * want);
    cudaMemset(pad, 0, sizeof(float) * want);
    pad_n = want;
  }
  stream_scale_kernel<<<(n + 255) / 256, 256>>>(out, in, pad, n, want);
}
