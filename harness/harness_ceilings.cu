// Harness's ceiling ops: what this GPU sustains, measured, for the roofline:
// DRAM bandwidth (device-to-device copy), FP32 FMA and bf16 tensor-core MMA rates.
#include <mma.h>

#include <functional>

#include "cuda_check.h"
#include "harness.h"

namespace kblaster::harness {
namespace {

constexpr int kFmaChains = 8;

// Independent FMA chains per thread, so the FP32 pipes, not latency, bound it.
__global__ void fma_kernel(float* sink, int iterations) {
  float a[kFmaChains];
  for (int c = 0; c < kFmaChains; ++c) a[c] = threadIdx.x * 1e-3f + c;
  for (int i = 0; i < iterations; ++i)
#pragma unroll
    for (int c = 0; c < kFmaChains; ++c) a[c] = fmaf(a[c], 0.999999f, 1e-6f);
  float sum = 0.0f;
  for (int c = 0; c < kFmaChains; ++c) sum += a[c];
  if (sum == 1234.5f) *sink = sum;  // keeps the chains alive; never true in practice
}

constexpr int kMmaChains = 8;

// Independent bf16 16x16x16 MMAs with FP32 accumulation, fragments held in
// registers, so the tensor pipes and not memory bound it.
__global__ void mma_kernel(float* sink, int iterations) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[kMmaChains];
  wmma::fill_fragment(a, __float2bfloat16(0.001f * threadIdx.x));
  wmma::fill_fragment(b, __float2bfloat16(0.5f));
  // Distinct starting values: identical chains would be computed once (common subexpressions).
  for (int k = 0; k < kMmaChains; ++k) wmma::fill_fragment(c[k], static_cast<float>(k));
  for (int i = 0; i < iterations; ++i)
#pragma unroll
    for (int k = 0; k < kMmaChains; ++k) wmma::mma_sync(c[k], a, b, c[k]);
  // Every element is read: a fragment is several mma instructions, and one whose
  // results go unread would be removed as dead code.
  float sum = 0.0f;
  for (int k = 0; k < kMmaChains; ++k)
    for (int e = 0; e < c[k].num_elements; ++e) sum += c[k].x[e];
  if (sum == 1234.5f) *sink = sum;  // keeps the chains alive; never true in practice
}

// The best rate of `work` units per second over `runs` launches of `launch` on
// `s`, the first `warmups` not counted.
double best_rate(cudaStream_t s, int runs, int warmups, double work,
                 const std::function<void()>& launch) {
  Event start, stop;
  double best = 0.0;
  for (int i = 0; i < runs; ++i) {
    KBH_CUDA(cudaEventRecord(start.get(), s));
    launch();
    KBH_CUDA(cudaEventRecord(stop.get(), s));
    KBH_CUDA(cudaEventSynchronize(stop.get()));
    float ms = 0.0f;
    KBH_CUDA(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    if (i >= warmups) best = std::max(best, work / (ms * 1e-3));
  }
  return best;
}

int sm_count() {
  int device = 0, sms = 0;
  KBH_CUDA(cudaGetDevice(&device));
  KBH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

}  // namespace

nlohmann::json Harness::peak_fp32() {
  if (!rig_) hello();
  const int blocks = sm_count() * 8, threads = 256, iterations = 8192;
  DeviceBuffer sink(sizeof(float));
  cudaStream_t s = rig_->stream();
  const double flops = 2.0 * blocks * threads * iterations * kFmaChains;
  return {{"flops_per_s", best_rate(s, 6, 1, flops, [&] {
             fma_kernel<<<blocks, threads, 0, s>>>(static_cast<float*>(sink.get()), iterations);
             KBH_CUDA(cudaGetLastError());
           })}};
}

nlohmann::json Harness::peak_tensor() {
  if (!rig_) hello();
  const int blocks = sm_count() * 8, warps = 8, iterations = 4096;
  DeviceBuffer sink(sizeof(float));
  cudaStream_t s = rig_->stream();
  const double flops = 2.0 * 16 * 16 * 16 * kMmaChains * double(iterations) * blocks * warps;
  return {{"flops_per_s", best_rate(s, 6, 1, flops, [&] {
             mma_kernel<<<blocks, warps * 32, 0, s>>>(static_cast<float*>(sink.get()), iterations);
             KBH_CUDA(cudaGetLastError());
           })}};
}

nlohmann::json Harness::peak_bandwidth() {
  if (!rig_) hello();
  constexpr std::size_t kBytes = std::size_t{1} << 30;
  DeviceBuffer a(kBytes), b(kBytes);
  cudaStream_t s = rig_->stream();
  KBH_CUDA(cudaMemsetAsync(a.get(), 1, kBytes, s));
  return {{"bytes_per_s", best_rate(s, 12, 2, 2.0 * kBytes, [&] {  // bytes read + written
             KBH_CUDA(cudaMemcpyAsync(b.get(), a.get(), kBytes, cudaMemcpyDeviceToDevice, s));
           })}};
}

}  // namespace kblaster::harness
