// Experiment: a statically linked cudart harness dlopens candidate objects that
// each carry their own static cudart (RTLD_LOCAL) and passes them its stream.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
using Entry = int (*)(void**, cudaStream_t);
using Signature = const char* (*)();
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char** argv) {
  bool close_objects = argc > 1 && std::strcmp(argv[1], "--dlclose") == 0;
  CHECK(cudaSetDevice(0));
  int n = 1 << 22;
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  std::vector<float> h(n), r(n);
  for (int i = 0; i < n; ++i) h[i] = float(i % 97 + 1);
  CHECK(cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  struct Obj { const char* path; float scale; void* handle; Entry entry; };
  std::vector<Obj> objs = {{"objs/a.so", 2.f}, {"objs/b.so", 3.f}, {"objs/bad.so", 2.f}};
  for (auto& o : objs) {
    o.handle = dlopen(o.path, RTLD_NOW | RTLD_LOCAL);
    if (!o.handle) { std::printf("FAIL dlopen %s: %s\n", o.path, dlerror()); return 1; }
    o.entry = reinterpret_cast<Entry>(dlsym(o.handle, "kblaster_entry"));
    auto sig = reinterpret_cast<Signature>(dlsym(o.handle, "kblaster_entry_signature"));
    std::printf("%s: signature %s\n", o.path, sig ? sig() : "(none)");
  }
  // ABAB, then the broken one, then A again, each on the harness's stream.
  int order[] = {0, 1, 0, 1, 2, 0, 1};
  bool all_ok = true;
  for (int k : order) {
    Obj& o = objs[k];
    CHECK(cudaMemsetAsync(out, 0xff, n * sizeof(float), s));  // NaN poison
    void* args[] = {out, in, &n};
    CHECK(cudaEventRecord(e0, s));
    int rc = o.entry(args, s);
    CHECK(cudaEventRecord(e1, s));
    CHECK(cudaStreamSynchronize(s));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    cudaError_t harness_error = cudaGetLastError();
    CHECK(cudaMemcpy(r.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) if (!(r[i] == o.scale * h[i])) ++bad;
    bool expect_fail = k == 2;
    bool ok = expect_fail ? (rc != cudaSuccess && harness_error == cudaSuccess)
                          : (rc == 0 && bad == 0 && harness_error == cudaSuccess && ms > 0);
    all_ok = all_ok && ok;
    std::printf("%-12s rc=%d (%s) harness_last_error=%d wrong=%d/%d event_ms=%.4f -> %s\n", o.path, rc,
                cudaGetErrorName(cudaError_t(rc)), int(harness_error), bad, n, ms, ok ? "ok" : "UNEXPECTED");
  }
  // Legacy default stream (0) from the harness, synchronised by the harness.
  void* args[] = {out, in, &n};
  CHECK(cudaMemset(out, 0xff, n * sizeof(float)));
  int rc = objs[1].entry(args, 0);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(r.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) if (!(r[i] == 3.f * h[i])) ++bad;
  std::printf("legacy stream: rc=%d wrong=%d -> %s\n", rc, bad, rc == 0 && bad == 0 ? "ok" : "UNEXPECTED");
  all_ok = all_ok && rc == 0 && bad == 0;
  if (close_objects) for (auto& o : objs) std::printf("dlclose %s -> %d\n", o.path, dlclose(o.handle));
  std::printf("%s\n", all_ok ? "ALL OK" : "SOMETHING UNEXPECTED");
  return all_ok ? 0 : 1;
}
