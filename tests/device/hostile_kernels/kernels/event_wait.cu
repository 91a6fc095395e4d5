// Moves its work to a stream of its own behind an event recorded on the caller's
// stream: nothing runs while that stream is held, but the caller's stop event
// does not wait for the work either, so events on it would time nothing. Each
// block first spins ~1 ms, so the escaped work is plainly still running when the
// caller's stream is done (a microsecond-long escape could race the check).
__global__ void scale_kernel(float* out, const float* in, int n) {
  if (threadIdx.x == 0) {
    const long long t0 = clock64();
    while (clock64() - t0 < 2000000) {
    }
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

void scale(float* out, const float* in, int n, cudaStream_t stream) {
  static cudaStream_t own = [] {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
  }();
  static cudaEvent_t ready = [] {
    cudaEvent_t e;
    cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    return e;
  }();
  cudaEventRecord(ready, stream);
  cudaStreamWaitEvent(own, ready, 0);
  scale_kernel<<<(n + 255) / 256, 256, 0, own>>>(out, in, n);
}
