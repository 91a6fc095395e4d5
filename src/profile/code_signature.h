// Static features of a kernel's source, read from text (comments and string
// literals ignored): what the code already uses, which the state classifier and
// the KB key combine with the profile.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

struct CodeSignature {
  int kernels = 0;                 // __global__ functions
  bool shared_memory = false;      // __shared__ (static or extern)
  bool tensor_cores = false;       // wmma::, mma.sync / wgmma PTX, cute/cutlass MMA atoms
  bool vector_access = false;      // float2/float4/int4/half2… loads or reinterpret_casts to them
  bool atomics = false;            // atomicAdd/atomicCAS/… or red./atom. PTX
  bool warp_shuffles = false;      // __shfl_*_sync, cooperative_groups reduce
  bool barriers = false;           // __syncthreads, __syncwarp, cg::sync
  bool loops = false;              // for / while / do inside device code
  bool unroll_pragmas = false;     // #pragma unroll
  bool launch_bounds = false;      // __launch_bounds__
  bool restrict_pointers = false;  // __restrict__ on a parameter
  bool grid_stride_loop = false;   // a loop stepping by blockDim.x * gridDim.x
  bool async_copy = false;         // cp.async, memcpy_async, cuda::pipeline, TMA
  bool fast_math_intrinsics = false;  // __expf, __logf, __fdividef, __sinf, …
  bool half_precision = false;        // __half, __nv_bfloat16, half2
  bool double_precision = false;      // double in device code
  bool matmul_like = false;  // a multiply-accumulate over a loop index (acc += a[..k..] * b[..k..])

  // The true features by stable name, in the order above ("shared_memory", …):
  // what reports print and the KB stores.
  std::vector<std::string> features() const;
};

// Reads the signature of `source` (one translation unit's text; includes are not followed).
CodeSignature read_signature(std::string_view source);

}  // namespace kblaster
