#include "transform/restrict.h"

#include <gtest/gtest.h>

#include "example_kernels.h"

namespace kblaster {
namespace {

TEST(AddRestrict, AddsToEveryPlainPointerParameter) {
  const auto r = add_restrict(
      "__global__ void k(float* out, const float* x, float *y, int n) {}\n"
      "template <typename T>\n"
      "__global__ void t(T* a, const T *b) {}\n");
  ASSERT_TRUE(r.changed);
  EXPECT_EQ(r.source,
            "__global__ void k(float* __restrict__ out, const float* __restrict__ x, "
            "float *__restrict__ y, int n) {}\n"
            "template <typename T>\n"
            "__global__ void t(T* __restrict__ a, const T *__restrict__ b) {}\n");
  EXPECT_EQ(r.description, "added __restrict__ to 5 pointer parameters of k (3), t (2)");
}

TEST(AddRestrict, LeavesOtherParametersAndHostCodeAlone) {
  const std::string source =
      "__global__ void k(float** pp, float& r, const float* __restrict__ x, int n,\n"
      "                  Pair<int*, float*> p, void (*f)(int*)) {}\n"
      "void host(float* p) {}\n"
      "__device__ void dev(float* p) {}\n";
  const auto r = add_restrict(source);
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.source, source);
  EXPECT_EQ(r.description, "no kernel pointer parameter lacks __restrict__");
}

TEST(AddRestrict, IgnoresCommentsAndStrings) {
  const std::string source =
      "// __global__ void k(float* p) {}\n"
      "/* __global__ void j(float* p) {} */\n"
      "const char* s = \"__global__ void m(float* p) {}\";\n";
  EXPECT_FALSE(add_restrict(source).changed);
}

TEST(AddRestrict, RewritesDeclarationsAndDefinitionsAlike) {
  const auto r = add_restrict("__global__ void k(float* p);\n__global__ void k(float* p) {}\n");
  EXPECT_EQ(
      r.source,
      "__global__ void k(float* __restrict__ p);\n__global__ void k(float* __restrict__ p) {}\n");
}

TEST(AddRestrict, ExampleKernels) {
  const auto matmul = add_restrict(testing::read_example("matmul_naive.cu"));
  ASSERT_TRUE(matmul.changed);
  EXPECT_NE(matmul.source.find("__global__ void matmul_kernel(const float* __restrict__ A, const "
                               "float* __restrict__ B, float* __restrict__ C, int M"),
            std::string::npos);
  // The host launcher keeps its plain pointers.
  EXPECT_NE(matmul.source.find("cudaError_t matmul(const float* A,"), std::string::npos);
  EXPECT_EQ(add_restrict(testing::read_example("reduce/reduce.cu")).description,
            "added __restrict__ to 1 pointer parameter of reduce_sum_final (1)");
  for (const auto* done : {"axpy.cu", "softmax.cu", "transpose.cu", "scale_rows.cu"}) {
    const auto source = testing::read_example(done);
    ASSERT_FALSE(source.empty()) << done;
    EXPECT_FALSE(add_restrict(source).changed) << done;
  }
}

TEST(AddRestrict, RewrittenExampleCompilesWithNvcc) {
  const auto r = add_restrict(testing::read_example("softmax_slow.cu"));
  ASSERT_TRUE(r.changed);
  EXPECT_NVCC_COMPILES("softmax_slow.cu", r.source);
}

}  // namespace
}  // namespace kblaster
