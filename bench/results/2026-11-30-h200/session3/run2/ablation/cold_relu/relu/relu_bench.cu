// relu: out = max(inp, 0) elementwise over n floats. Memory-bound.
// Also a stand-alone benchmark (`nvcc -O3 relu_bench.cu && ./a.out`); kblaster renames
// its main away and calls the launcher `relu`.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define BENCH_CHECK(call)                                                \
  do {                                                                   \
    const cudaError_t err_ = (call);                                     \
    if (err_ != cudaSuccess) {                                           \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(err_));                            \
      std::exit(1);                                                      \
    }                                                                    \
  } while (0)

__global__ void relu_kernel(float* __restrict__ out, const float* __restrict__ inp, int n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < static_cast<unsigned>(n)) out[i] = fmaxf(inp[i], 0.0f);
}

void relu(float* out, const float* inp, int n) {
  if (n <= 0) return;
  constexpr int kThreads = 256;
  relu_kernel<<<n / kThreads + (n % kThreads != 0), kThreads>>>(out, inp, n);
}

int main() {
  const int n = 1 << 25;
  const int iters = 20;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 7) - 3.0f;

  float *inp = nullptr, *out = nullptr;
  BENCH_CHECK(cudaMalloc(&inp, n * sizeof(float)));
  BENCH_CHECK(cudaMalloc(&out, n * sizeof(float)));
  BENCH_CHECK(cudaMemcpy(inp, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  BENCH_CHECK(cudaEventCreate(&start));
  BENCH_CHECK(cudaEventCreate(&stop));
  relu(out, inp, n);  // warm-up
  BENCH_CHECK(cudaEventRecord(start));
  for (int i = 0; i < iters; ++i) relu(out, inp, n);
  BENCH_CHECK(cudaEventRecord(stop));
  BENCH_CHECK(cudaEventSynchronize(stop));
  BENCH_CHECK(cudaGetLastError());
  float ms = 0.0f;
  BENCH_CHECK(cudaEventElapsedTime(&ms, start, stop));

  BENCH_CHECK(cudaMemcpy(host.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += host[i] != std::max(static_cast<float>(i % 7) - 3.0f, 0.0f);
  std::printf("relu n=%d: %.3f ms/iter, %.1f GB/s, %d wrong\n", n, ms / iters,
              2.0 * n * sizeof(float) * iters / (ms * 1e6), bad);

  BENCH_CHECK(cudaEventDestroy(start));
  BENCH_CHECK(cudaEventDestroy(stop));
  BENCH_CHECK(cudaFree(inp));
  BENCH_CHECK(cudaFree(out));
  return bad == 0 ? 0 : 1;
}
