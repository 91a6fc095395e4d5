#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "cuda_check.h"
#include "random_fill.h"

namespace kblaster::harness {
namespace {

__device__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform in (0, 1): 53 random bits, offset by half an ulp so it is never 0.
__device__ double unit(std::uint64_t bits) { return ((bits >> 11) + 0.5) * 0x1.0p-53; }

template <class T>
__device__ T convert(double v) {
  return static_cast<T>(v);
}
template <>
__device__ __half convert<__half>(double v) {
  return __double2half(v);
}
template <>
__device__ __nv_bfloat16 convert<__nv_bfloat16>(double v) {
  return __double2bfloat16(v);
}

template <class T>
__global__ void fill_kernel(T* out, std::size_t n, Distribution d, std::uint64_t key) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const std::uint64_t h1 = splitmix64(key ^ (2 * i));
    double v;
    if (d.kind == Distribution::Kind::normal) {
      const std::uint64_t h2 = splitmix64(key ^ (2 * i + 1));
      const double r = sqrt(-2.0 * log(unit(h1)));
      v = d.a + d.b * r * cospi(2.0 * unit(h2));
    } else if (d.kind == Distribution::Kind::uniform) {
      v = d.a + (d.b - d.a) * unit(h1);
    } else {
      v = floor(d.a + (d.b - d.a) * unit(h1));
    }
    out[i] = convert<T>(v);
  }
}

template <class T>
void launch(void* data, std::size_t n, const Distribution& d, std::uint64_t key, cudaStream_t s) {
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65536));
  fill_kernel<T><<<blocks, 256, 0, s>>>(static_cast<T*>(data), n, d, key);
  KBH_CUDA(cudaGetLastError());
}

}  // namespace

void fill_random(ElementType type, void* data, std::size_t count, const Distribution& dist,
                 std::uint64_t seed, std::uint64_t stream_id, cudaStream_t stream) {
  const std::uint64_t key = seed * 0xD1342543DE82EF95ull + stream_id * 0x9E3779B97F4A7C15ull;
  switch (type) {
    case ElementType::f64:
      return launch<double>(data, count, dist, key, stream);
    case ElementType::f32:
      return launch<float>(data, count, dist, key, stream);
    case ElementType::f16:
      return launch<__half>(data, count, dist, key, stream);
    case ElementType::bf16:
      return launch<__nv_bfloat16>(data, count, dist, key, stream);
    case ElementType::i64:
      return launch<std::int64_t>(data, count, dist, key, stream);
    case ElementType::i32:
      return launch<std::int32_t>(data, count, dist, key, stream);
    case ElementType::i16:
      return launch<std::int16_t>(data, count, dist, key, stream);
    case ElementType::i8:
      return launch<std::int8_t>(data, count, dist, key, stream);
    case ElementType::u8:
    case ElementType::boolean:
      return launch<std::uint8_t>(data, count, dist, key, stream);
  }
}

}  // namespace kblaster::harness
