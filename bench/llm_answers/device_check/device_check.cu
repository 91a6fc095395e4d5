// A stand-alone check of one answer file on a GPU, outside kblaster: at every declared size of
// its kernel (examples/kernels/kblaster.toml) and for two seeds in the same buffers, poison the
// output, launch, compare with the CPU reference under the kernel's tolerance, and time the
// launch (median of 20, cudaEvent). Built per answer by device_check.sh:
//   nvcc -DKIND_MATMUL|KIND_SOFTMAX|KIND_SCALE_ROWS|KIND_AXPY -DANSWER='"file.cu"' ...
// It is a quick sanity check of the hand-written answers; the verdicts that count are
// kblaster's own (verify, bench, optimize).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include ANSWER

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      return 2;                                                                            \
    }                                                                                      \
  } while (0)

#if defined(KIND_MATMUL)
#include "../../../examples/kernels/kernels/ref/matmul_ref.cpp"
#elif defined(KIND_SOFTMAX)
#include "../../../examples/kernels/kernels/ref/softmax_ref.cpp"
#elif defined(KIND_SCALE_ROWS)
#include "../../../examples/kernels/kernels/ref/scale_rows_ref.cpp"
#elif defined(KIND_AXPY)
#include "../../../examples/kernels/kernels/ref/axpy_ref.cpp"
#endif

namespace {

struct Buf {
  std::vector<float> host;
  float* dev = nullptr;
};

int alloc(Buf& b, size_t n) {
  b.host.assign(n, 0.0f);
  CHECK(cudaMalloc(&b.dev, std::max<size_t>(n, 1) * sizeof(float)));
  return 0;
}

[[maybe_unused]] void fill_uniform(std::vector<float>& v, std::mt19937_64& g, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  for (auto& x : v) x = d(g);
}
[[maybe_unused]] void fill_normal(std::vector<float>& v, std::mt19937_64& g, float mean, float sd) {
  std::normal_distribution<float> d(mean, sd);
  for (auto& x : v) x = d(g);
}

// Compares got with ref; returns the number of bad elements, NaN (poison) counting as bad.
size_t compare(const std::vector<float>& got, const std::vector<float>& ref, double rtol,
               double atol, double& max_abs) {
  size_t bad = 0;
  max_abs = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double d = std::fabs(static_cast<double>(got[i]) - ref[i]);
    if (!(d <= atol + rtol * std::fabs(static_cast<double>(ref[i])))) ++bad;
    if (d > max_abs || std::isnan(d)) max_abs = std::isnan(d) ? INFINITY : d;
  }
  return bad;
}

template <class Launch>
float median_ms(Launch launch) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> ms;
  launch();
  cudaDeviceSynchronize();
  for (int i = 0; i < 20; ++i) {
    cudaEventRecord(a);
    launch();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int failures = 0;

void report(const char* size, int seed, size_t bad, size_t n, double max_abs, float ms) {
  std::printf("%-22s seed %d: %s bad %zu/%zu max_abs_err %.3g time %.4f ms\n", size, seed,
              bad == 0 ? "PASS" : "FAIL", bad, n, max_abs, ms);
  if (bad) ++failures;
}

}  // namespace

int main() {
#if defined(KIND_MATMUL)
  const int sizes[][3] = {{2048, 2048, 1024}, {127, 255, 33}, {1, 1000, 7}};
  for (auto& s : sizes) {
    const int M = s[0], N = s[1], K = s[2];
    Buf A, B, C;
    if (alloc(A, size_t(M) * K) || alloc(B, size_t(K) * N) || alloc(C, size_t(M) * N)) return 2;
    for (int seed = 1; seed <= 2; ++seed) {
      std::mt19937_64 g(seed * 7919 + M);
      fill_uniform(A.host, g, -1, 1);
      fill_uniform(B.host, g, -1, 1);
      CHECK(cudaMemcpy(A.dev, A.host.data(), A.host.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(B.dev, B.host.data(), B.host.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemset(C.dev, 0xff, C.host.size() * 4));  // NaN poison
      CHECK(naive::matmul(A.dev, B.dev, C.dev, M, N, K));
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(C.host.data(), C.dev, C.host.size() * 4, cudaMemcpyDeviceToHost));
      std::vector<float> ref(C.host.size());
      matmul_ref(A.host.data(), B.host.data(), ref.data(), M, N, K);
      double max_abs;
      const size_t bad = compare(C.host, ref, 1e-4, 1e-3, max_abs);
      const float ms = median_ms([&] { naive::matmul(A.dev, B.dev, C.dev, M, N, K); });
      char name[64];
      std::snprintf(name, sizeof name, "M=%d N=%d K=%d", M, N, K);
      report(name, seed, bad, C.host.size(), max_abs, ms);
      if (seed == 1 && M == 2048)
        std::printf("  %.2f TFLOP/s\n", 2.0 * M * N * K / (ms * 1e-3) / 1e12);
    }
  }
#elif defined(KIND_SOFTMAX)
  const int sizes[][2] = {{8192, 2048}, {333, 1000}, {7, 33}};
  for (auto& s : sizes) {
    const int rows = s[0], cols = s[1];
    Buf out, inp;
    if (alloc(out, size_t(rows) * cols) || alloc(inp, size_t(rows) * cols)) return 2;
    for (int seed = 1; seed <= 2; ++seed) {
      std::mt19937_64 g(seed * 7919 + rows);
      fill_normal(inp.host, g, 0, 4);
      CHECK(cudaMemcpy(inp.dev, inp.host.data(), inp.host.size() * 4, cudaMemcpyHostToDevice));
      // Twice, as the harness's warm-up and held launch, poisoned before each.
      for (int rep = 0; rep < 2; ++rep) {
        CHECK(cudaMemset(out.dev, 0xff, out.host.size() * 4));
        softmax_slow(out.dev, inp.dev, rows, cols);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
      }
      CHECK(cudaMemcpy(out.host.data(), out.dev, out.host.size() * 4, cudaMemcpyDeviceToHost));
      std::vector<float> ref(out.host.size());
      softmax_ref(ref.data(), inp.host.data(), rows, cols);
      double max_abs;
      const size_t bad = compare(out.host, ref, 1e-4, 1e-5, max_abs);
      const float ms = median_ms([&] { softmax_slow(out.dev, inp.dev, rows, cols); });
      char name[64];
      std::snprintf(name, sizeof name, "rows=%d cols=%d", rows, cols);
      report(name, seed, bad, out.host.size(), max_abs, ms);
    }
  }
#elif defined(KIND_SCALE_ROWS)
  const int sizes[][2] = {{16384, 2048}, {333, 1001}, {1, 5}, {3, 1}, {5, 7}};
  const int block_sizes[] = {128, 256, 512, 1, 33};
  for (auto& s : sizes) {
    const int rows = s[0], cols = s[1];
    Buf out, inp, scale;
    if (alloc(out, size_t(rows) * cols) || alloc(inp, size_t(rows) * cols) || alloc(scale, rows))
      return 2;
    for (int bs : block_sizes) {
      if (bs < 128 && rows > 1000) continue;
      std::mt19937_64 g(bs * 7919 + rows);
      fill_normal(inp.host, g, 0, 1);
      fill_uniform(scale.host, g, 0.5f, 2.0f);
      CHECK(cudaMemcpy(inp.dev, inp.host.data(), inp.host.size() * 4, cudaMemcpyHostToDevice));
      CHECK(
          cudaMemcpy(scale.dev, scale.host.data(), scale.host.size() * 4, cudaMemcpyHostToDevice));
      CHECK(cudaMemset(out.dev, 0xff, out.host.size() * 4));
      CHECK(scale_rows(out.dev, inp.dev, scale.dev, rows, cols, bs, 0));
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(out.host.data(), out.dev, out.host.size() * 4, cudaMemcpyDeviceToHost));
      std::vector<float> ref(out.host.size());
      scale_rows_ref(ref.data(), inp.host.data(), scale.host.data(), rows, cols);
      double max_abs;
      const size_t bad = compare(out.host, ref, 1e-4, 1e-5, max_abs);
      const float ms =
          median_ms([&] { scale_rows(out.dev, inp.dev, scale.dev, rows, cols, bs, 0); });
      char name[64];
      std::snprintf(name, sizeof name, "rows=%d cols=%d bs=%d", rows, cols, bs);
      report(name, 1, bad, out.host.size(), max_abs, ms);
    }
  }
  {  // An offset output pointer takes the scalar path and must still be right.
    const int rows = 33, cols = 17;
    Buf out, inp, scale;
    if (alloc(out, size_t(rows) * cols + 1) || alloc(inp, size_t(rows) * cols + 1) ||
        alloc(scale, rows))
      return 2;
    std::mt19937_64 g(5);
    fill_normal(inp.host, g, 0, 1);
    fill_uniform(scale.host, g, 0.5f, 2.0f);
    CHECK(cudaMemcpy(inp.dev, inp.host.data(), inp.host.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(scale.dev, scale.host.data(), rows * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out.dev, 0xff, out.host.size() * 4));
    CHECK(scale_rows(out.dev + 1, inp.dev + 1, scale.dev, rows, cols, 128, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out.host.data(), out.dev, out.host.size() * 4, cudaMemcpyDeviceToHost));
    std::vector<float> ref(size_t(rows) * cols);
    scale_rows_ref(ref.data(), inp.host.data() + 1, scale.host.data(), rows, cols);
    std::vector<float> got(out.host.begin() + 1, out.host.end());
    double max_abs;
    report("offset by 1 float", 1, compare(got, ref, 1e-4, 1e-5, max_abs), got.size(), max_abs, 0);
  }
#elif defined(KIND_AXPY)
  const int sizes[] = {16777216, 1000003, 1, 65536, 1001, 2, 3, 4, 5, 2049};
  for (int n : sizes) {
    Buf x, y;
    if (alloc(x, n) || alloc(y, n)) return 2;
    std::mt19937_64 g(n);
    fill_uniform(x.host, g, -1, 1);
    fill_normal(y.host, g, 0, 1);
    CHECK(cudaMemcpy(x.dev, x.host.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y.dev, y.host.data(), n * 4, cudaMemcpyHostToDevice));
    axpy(n, 2.0f, x.dev, y.dev);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> got(n);
    CHECK(cudaMemcpy(got.data(), y.dev, n * 4, cudaMemcpyDeviceToHost));
    std::vector<float> ref = y.host;
    axpy_ref(n, 2.0f, x.host.data(), ref.data());
    double max_abs;
    const size_t bad = compare(got, ref, 1e-4, 1e-5, max_abs);
    const float ms = median_ms([&] { axpy(n, 2.0f, x.dev, y.dev); });
    char name[64];
    std::snprintf(name, sizeof name, "n=%d", n);
    report(name, 1, bad, n, max_abs, ms);
  }
#endif
  std::printf("%s: %d failure(s)\n", ANSWER, failures);
  return failures == 0 ? 0 : 1;
}
