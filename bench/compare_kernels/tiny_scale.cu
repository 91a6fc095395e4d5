// out = 2 * in over 2^18 elements: a launch-bound kernel of a few microseconds, like
// examples/kernels' axpy_small. SPIN_CYCLES makes every thread wait that many SM cycles
// (clock64) before its store, so a variant is slower by about SPIN_CYCLES / the SM clock while
// computing the same function: the launch-bound counterpart of stream_scale.cu's extra traffic,
// which barely moves a kernel this short. bench/results/ gives each variant's measured ratio.
// EXTRA_FMAS adds that many dependent fma(v, 1, 0) per thread instead, which keep v's value
// (a -0 becomes +0, equal as a number): a finer step than the spin, whose clock64 loop costs
// ~2.5 % of the hot time before it waits at all (2026-12-03-h200-session20.md).
#ifndef SPIN_CYCLES
#define SPIN_CYCLES 0
#endif
#ifndef EXTRA_FMAS
#define EXTRA_FMAS 0
#endif

__global__ void tiny_scale_kernel(float* __restrict__ out, const float* __restrict__ in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = 2.0f * in[i];
#pragma unroll
  for (int k = 0; k < EXTRA_FMAS; ++k) asm volatile("fma.rn.f32 %0, %0, 0f3F800000, 0f00000000;" : "+f"(v));
#if SPIN_CYCLES > 0
  const long long start = clock64();
  while (clock64() - start < SPIN_CYCLES) {
  }
#endif
  out[i] = v;
}

void tiny_scale(float* out, const float* in, int n) {
  tiny_scale_kernel<<<(n + 255) / 256, 256>>>(out, in, n);
}
