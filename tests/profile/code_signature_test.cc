#include "profile/code_signature.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace kblaster {
namespace {

using Features = std::vector<std::string>;

std::string read_example(const std::string& relative) {
  std::ifstream in(KBLASTER_SOURCE_DIR "/examples/kernels/kernels/" + relative);
  EXPECT_TRUE(in) << relative;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Features features_of(std::string_view source) { return read_signature(source).features(); }

// One feature: its name, source that has it, and source that only mentions it in a
// comment, a string or a lookalike. `positive_features` defaults to {name}.
struct FeatureCase {
  std::string name;
  std::string positive;
  std::string negative;
  Features positive_features = {};
};

class EachFeature : public ::testing::TestWithParam<FeatureCase> {};

TEST_P(EachFeature, IsSeenInCodeOnly) {
  const FeatureCase& c = GetParam();
  const Features expected = c.positive_features.empty() ? Features{c.name} : c.positive_features;
  EXPECT_EQ(features_of(c.positive), expected) << c.positive;
  EXPECT_EQ(features_of(GetParam().negative), Features{}) << GetParam().negative;
}

INSTANTIATE_TEST_SUITE_P(
    CodeSignature, EachFeature,
    ::testing::Values(
        FeatureCase{"shared_memory", "extern __shared__ float smem[];",
                    "// __shared__ float tile[32];\nconst char* s = \"__shared__\";"},
        FeatureCase{"tensor_cores", "nvcuda::wmma::fragment<a, 16, 16, 16, half_t> f;",
                    "/* wmma::mma_sync(c, a, b, c); */ int wmma = 0;"},
        FeatureCase{"tensor_cores",
                    "asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 \"\n"
                    "             \"{%0,%1}, {%2}, {%3}, {%4,%5};\" : \"+f\"(d0));",
                    "puts(\"mma.sync\");"},
        FeatureCase{"tensor_cores", "using Mma = MMA_Atom<SM80_16x8x16_F32TF32TF32F32_TN>;",
                    "using Copy = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;"},
        FeatureCase{"vector_access", "auto v = reinterpret_cast<const float4*>(p)[i];",
                    "float3 v = make_float3(0, 0, 0); // float4\nint float4x = 1;"},
        FeatureCase{"atomics", "atomicAdd(&out[0], s);",
                    "// atomicAdd(&out[0], s);\nint atomic = 0;"},
        FeatureCase{"atomics", "asm(\"red.global.add.f32 [%0], %1;\" :: \"l\"(p), \"f\"(v));",
                    "asm(\"bar.red.popc.u32 %0, 0, %1;\" : \"=r\"(n) : \"r\"(p));"},
        FeatureCase{"warp_shuffles", "v += __shfl_down_sync(0xffffffffu, v, 16);",
                    "const char* doc = \"__shfl_down_sync\"; int shfl = 3;"},
        FeatureCase{"warp_shuffles", "s = cg::reduce(warp, s, cg::plus<float>());",
                    "s = std::reduce(v.begin(), v.end());"},
        FeatureCase{"barriers", "__syncthreads();", "// __syncthreads();\nint syncthreads = 1;"},
        FeatureCase{"barriers", "auto block = cg::this_thread_block();\nblock.sync();",
                    "/* block.sync(); */"},
        FeatureCase{"loops", "for (int i = 0; i < n; ++i) y[i] = 0;",
                    "#define CHECK(x) do { if (!(x)) return; } while (0)\n// for (;;) {}\n"
                    "const char* s = \"while (1)\"; int format = 0;"},
        FeatureCase{"loops", "while (n > 1) n /= 2;", "int whilst = 1;"},
        FeatureCase{"unroll_pragmas", "#pragma unroll 4\n", "#pragma once\n// #pragma unroll\n"},
        FeatureCase{"launch_bounds", "__global__ void __launch_bounds__(256) k() {}",
                    "__global__ void k() {} // __launch_bounds__(256)"},
        FeatureCase{"restrict_pointers", "void f(const float* __restrict__ x);",
                    "void f(const float* x); // not __restrict__"},
        FeatureCase{"async_copy", "__pipeline_memcpy_async(&s[i], &g[i], 16);",
                    "cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, stream);"},
        FeatureCase{"async_copy", "cuda::pipeline<cuda::thread_scope_thread> pipe = make();",
                    "std::pipeline<int> pipe; // cuda::memcpy_async"},
        FeatureCase{"async_copy", "asm volatile(\"cp.async.ca.shared.global [%0], [%1], 16;\");",
                    "int cp_ = 0; const char* s = \"cp.async\";"},
        FeatureCase{"fast_math_intrinsics", "y = __expf(x) * __fdividef(a, b);",
                    "y = expf(x); // __expf\nconst char* s = \"__fdividef\";"},
        FeatureCase{"half_precision", "__half h = __float2half(x);",
                    "const int half = n / 2; m = half * 2; // __half"},
        FeatureCase{"half_precision", "template <typename T> void f();\nvoid g() { f<half>(); }",
                    "f<int>(half, halfway);"},
        FeatureCase{"double_precision", "double acc = 0;", "float acc = 0; // double\n\"double\";"},
        FeatureCase{"grid_stride_loop",
                    "for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n;\n"
                    "     i += gridDim.x * blockDim.x) y[i] = 0;",
                    "// i += blockDim.x * gridDim.x\n"
                    "const char* s = \"i += blockDim.x * gridDim.x\";",
                    {"loops", "grid_stride_loop"}},
        FeatureCase{"grid_stride_loop",
                    "const int step = blockDim.x * gridDim.x;\n"
                    "int i = threadIdx.x;\nwhile (i < n) { y[i] = 0; i += step; }",
                    "const int step = blockDim.x;\nint i = 0; i += step; // * gridDim.x",
                    {"loops", "grid_stride_loop"}},
        FeatureCase{
            "matmul_like",
            "for (int k = 0; k < K; ++k)\n"
            "  for (int kk = 0; kk < 4; ++kk) acc = fmaf(As[ty][k + kk], Bs[k + kk][tx], acc);",
            "int acc = 0;\nacc = fmaf(As[ty][0], Bs[0][tx], acc); // for (;;)",
            {"loops", "matmul_like"}},
        FeatureCase{"matmul_like",
                    "for (int k = 0; k < K; ++k) {\n  acc += A[row * K + k] * B[k * N + col];\n}",
                    "x = 1; // for (int k = 0; k < K; ++k) acc += A[k] * B[k];\n"
                    "const char* s = \"for (int k = 0; k < K; ++k) acc += A[k] * B[k];\";",
                    {"loops", "matmul_like"}}),
    [](const ::testing::TestParamInfo<FeatureCase>& info) {
      return info.param.name + "_" + std::to_string(info.index);
    });

// Lookalikes that sit in real code but are not the feature.
TEST(CodeSignature, ResemblancesThatAreNotTheFeature) {
  const CodeSignature sig = read_signature(
      "for (int c = threadIdx.x; c < C; c += blockDim.x) v += x[c] * x[c];  // a sum of squares\n"
      "for (int i = 0; i < n; ++i) s += a[0] * b[0];  // no subscript uses i\n"
      "for (int i = 0; i < n; ++i) s += d * w[i];\n");
  EXPECT_FALSE(sig.matmul_like);
  EXPECT_FALSE(sig.grid_stride_loop) << "a block-stride loop is not a grid-stride loop";
  EXPECT_TRUE(sig.loops);
}

TEST(CodeSignature, CountsKernelsAndKeepsLinesWhenStripping) {
  const CodeSignature sig = read_signature(
      "/* a comment\n   over lines */ __global__ void a() {}\n"
      "const char* s = \"__global__ \\\" escaped\";  char q = '\"';\n"
      "template <typename T> __global__ void b(T*) {}\n"
      "auto r = R\"x(__global__ \")x\"; int n = 1'000'000;\n");
  EXPECT_EQ(sig.kernels, 2);
  EXPECT_EQ(sig.features(), Features{});
}

TEST(CodeSignature, SurvivesUnterminatedText) {
  for (const char* text : {"R\"", "R\"x(", "/*", "\"abc", "'", "for (", "asm(\"", "x += a[", "\\"})
    EXPECT_EQ(read_signature(text).kernels, 0) << text;
}

// A quote after a hex digit opened a character literal that swallowed the rest of its line.
TEST(CodeSignature, HexDigitSeparatorsHideNoCode) {
  const CodeSignature sig = read_signature(
      "__global__ void k(unsigned* p) { const unsigned m = 0xFF'FF; __shared__ unsigned t[32];\n"
      "  for (int i = 0; i < 32; ++i) t[i] = p[i] & 0xAB'CD'EF; __syncthreads(); }\n");
  EXPECT_EQ(sig.features(), (Features{"shared_memory", "barriers", "loops"}));
}

// A raw string over several lines is one literal, so the asm strings after it keep their place.
TEST(CodeSignature, ReadsPtxFromARawStringOverLines) {
  EXPECT_EQ(features_of("__global__ void k() {\n"
                        "  asm volatile(R\"(\n"
                        "    bar.sync 0;\n"
                        "  )\");\n"
                        "}\n"),
            Features{"barriers"});
}

TEST(CodeSignature, ABackslashNewlineContinuesALineComment) {
  EXPECT_EQ(features_of("// a note \\\n__shared__ float t[8];\n"), Features{});
}

TEST(CodeSignature, FeaturesComeInHeaderOrder) {
  const CodeSignature sig = read_signature(
      "__global__ void k(double* __restrict__ p) { __shared__ float4 t[8]; __syncthreads(); }");
  EXPECT_EQ(sig.features(), (Features{"shared_memory", "vector_access", "barriers",
                                      "restrict_pointers", "double_precision"}));
}

struct ExampleCase {
  std::string file;
  int kernels;
  Features features;
};

class ExampleKernel : public ::testing::TestWithParam<ExampleCase> {};

// Expected values come from reading each file. Includes are not followed, so the warp
// shuffles and barriers inside kb_common.cuh's block_sum/block_max do not count.
TEST_P(ExampleKernel, HasTheFeaturesItsSourceShows) {
  const CodeSignature sig = read_signature(read_example(GetParam().file));
  EXPECT_EQ(sig.kernels, GetParam().kernels);
  EXPECT_EQ(sig.features(), GetParam().features);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, ExampleKernel,
    ::testing::Values(
        ExampleCase{"axpy.cu", 1, {"restrict_pointers"}},
        ExampleCase{"layernorm.cu", 1, {"shared_memory", "loops", "restrict_pointers"}},
        ExampleCase{"matmul_naive.cu", 1, {"loops", "matmul_like"}},
        // Host loops in main count; the BENCH_CHECK macro's do { } while (0) does not.
        ExampleCase{"relu_bench.cu", 1, {"loops", "restrict_pointers"}},
        ExampleCase{"scale_rows.cu", 1, {"restrict_pointers", "double_precision"}},
        ExampleCase{"softmax.cu", 1, {"shared_memory", "loops", "restrict_pointers"}},
        ExampleCase{"softmax_slow.cu", 1, {"loops"}},
        ExampleCase{"transpose.cu", 1, {"shared_memory", "barriers", "loops", "restrict_pointers"}},
        ExampleCase{"reduce/reduce.cu",
                    2,
                    {"shared_memory", "loops", "restrict_pointers", "grid_stride_loop"}}),
    [](const ::testing::TestParamInfo<ExampleCase>& info) {
      std::string name = info.param.file.substr(info.param.file.rfind('/') + 1);
      return name.substr(0, name.find('.'));
    });

// The shared kb_common.cuh is where softmax's shuffles live: read directly, it has them.
TEST(CodeSignature, ReadsTheSharedHelpersWhenGivenThem) {
  std::ifstream in(KBLASTER_SOURCE_DIR "/examples/kernels/include/kb_common.cuh");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(read_signature(text.str()).features(),
            (Features{"warp_shuffles", "barriers", "loops"}));
}

TEST(CodeSignature, ALongFileOfManyKernelsIsReadWhole) {
  std::string source;
  while (std::count(source.begin(), source.end(), '\n') < 2000)
    source += read_example("transpose.cu") + read_example("matmul_naive.cu");
  const CodeSignature sig = read_signature(source);
  EXPECT_TRUE(sig.matmul_like);
  EXPECT_TRUE(sig.shared_memory);
  EXPECT_GT(sig.kernels, 20);
}

}  // namespace
}  // namespace kblaster
