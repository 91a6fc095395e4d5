#include <cuda_runtime.h>
#ifndef SCALE
#error SCALE must be set
#endif
__global__ void scale_kernel(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = SCALE * in[i];
}
void scale(float* out, const float* in, int n, cudaStream_t stream) {
  scale_kernel<<<(n + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(out, in, n);
}
int main() { return 0; }  // a stand-alone benchmark's main, renamed by the shim
