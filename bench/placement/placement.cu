// Issue 21 A's placement experiment: is axpy_small's process-to-process offset (two groups
// about 5.5 % apart across `bench` processes, each tight within itself) a property of where its
// buffers landed, of the CUDA context, or of the stream? Standalone on purpose: it tests the
// hypothesis before the harness changes, with the harness's own timing discipline (L2 flush,
// the stream held by a spin kernel while launches queue, CUDA events around them).
//
//   placement N CONTEXTS STREAMS PLACEMENTS SAMPLES CALLS
//
// For each of CONTEXTS fresh contexts (cudaDeviceReset between), STREAMS streams and PLACEMENTS
// buffer placements (x and y allocated anew each time, earlier ones kept alive, a spacer of
// varying size between), SAMPLES cold samples (one launch after the flush) and SAMPLES hot ones
// (CALLS launches back to back, divided by CALLS). One JSON line per (context, stream,
// placement) with every sample, for bench/placement/placement.py.
#include <cuda_runtime.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                         \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x,                  \
                   cudaGetErrorString(e_));                                           \
      std::exit(2);                                                                   \
    }                                                                                 \
  } while (0)

// examples/kernels/kernels/axpy.cu's kernel and launch shape.
__global__ void axpy_kernel(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void hold_kernel(volatile int* release) {
  while (!*release) {
  }
}

__global__ void fill_kernel(float* p, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + 1e-3f * (i % 1000);
}

int main(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: placement N CONTEXTS STREAMS PLACEMENTS SAMPLES CALLS\n");
    return 1;
  }
  const int n = std::atoi(argv[1]), contexts = std::atoi(argv[2]), streams = std::atoi(argv[3]),
            placements = std::atoi(argv[4]), samples = std::atoi(argv[5]),
            calls = std::atoi(argv[6]);
  const int block = 256, grid = (n + block - 1) / block;
  for (int c = 0; c < contexts; ++c) {
    CK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const size_t flush_bytes = 2 * static_cast<size_t>(prop.l2CacheSize);
    void* flush;
    CK(cudaMalloc(&flush, flush_bytes));
    int* release;
    CK(cudaHostAlloc(&release, sizeof(int), cudaHostAllocMapped));
    int* release_d;
    CK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&release_d), release, 0));
    std::vector<cudaStream_t> ss(streams);
    for (auto& s : ss) CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t start, stop;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    std::vector<void*> kept;
    for (int p = 0; p < placements; ++p) {
      void* spacer;  // moves the next buffers by 0..3 MiB of 64 KiB steps
      CK(cudaMalloc(&spacer, (1 + (p * 7919) % 48) * 65536));
      kept.push_back(spacer);
      float *x, *y;
      CK(cudaMalloc(&x, n * sizeof(float)));
      CK(cudaMalloc(&y, n * sizeof(float)));
      kept.push_back(x);
      kept.push_back(y);
      fill_kernel<<<grid, block>>>(x, n, 0.5f);
      fill_kernel<<<grid, block>>>(y, n, 0.25f);
      CK(cudaDeviceSynchronize());
      for (int si = 0; si < streams; ++si) {
        cudaStream_t s = ss[si];
        axpy_kernel<<<grid, block, 0, s>>>(n, 1e-6f, x, y);  // warm-up
        CK(cudaStreamSynchronize(s));
        std::vector<float> cold, hot;
        for (int k = 0; k < 2 * samples; ++k) {
          const int batch = k % 2 == 0 ? 1 : calls;
          CK(cudaMemsetAsync(flush, k & 0xFF, flush_bytes, s));
          *release = 0;
          hold_kernel<<<1, 1, 0, s>>>(release_d);
          CK(cudaEventRecord(start, s));
          for (int i = 0; i < batch; ++i) axpy_kernel<<<grid, block, 0, s>>>(n, 1e-6f, x, y);
          CK(cudaEventRecord(stop, s));
          *release = 1;
          CK(cudaEventSynchronize(stop));
          float ms;
          CK(cudaEventElapsedTime(&ms, start, stop));
          (batch == 1 ? cold : hot).push_back(ms * 1e3f / batch);
        }
        std::printf("{\"pid\": %d, \"context\": %d, \"stream\": %d, \"placement\": %d, "
                    "\"x\": \"%p\", \"y\": \"%p\", \"cold_us\": [",
                    static_cast<int>(getpid()), c, si, p, static_cast<void*>(x),
                    static_cast<void*>(y));
        for (size_t i = 0; i < cold.size(); ++i) std::printf("%s%.4f", i ? ", " : "", cold[i]);
        std::printf("], \"hot_us\": [");
        for (size_t i = 0; i < hot.size(); ++i) std::printf("%s%.4f", i ? ", " : "", hot[i]);
        std::printf("]}\n");
      }
    }
    for (void* k : kept) CK(cudaFree(k));
    CK(cudaFree(flush));
    CK(cudaFreeHost(release));
    CK(cudaDeviceReset());
  }
  return 0;
}
