#include "transform/fast_intrinsics.h"

#include <gtest/gtest.h>

#include "example_kernels.h"

namespace kblaster {
namespace {

TEST(UseFastIntrinsics, ReplacesMathCallsInDeviceCodeOnly) {
  const auto r = use_fast_intrinsics(
      "__device__ float g(float x) { return expf(x) + sinf(x) * cosf (x); }\n"
      "__global__ void k(float* y, float x) { y[0] = powf(x, 2.f) + logf(x) + expf(g(x)); }\n"
      "float host(float x) { return expf(x); }\n");
  ASSERT_TRUE(r.changed);
  EXPECT_EQ(r.source,
            "__device__ float g(float x) { return __expf(x) + __sinf(x) * __cosf (x); }\n"
            "__global__ void k(float* y, float x) { y[0] = __powf(x, 2.f) + __logf(x) + "
            "__expf(g(x)); }\n"
            "float host(float x) { return expf(x); }\n");
  EXPECT_EQ(r.description,
            "fast-math intrinsics written in the source: expf -> __expf (2), logf -> __logf "
            "(1), sinf -> __sinf (1), cosf -> __cosf (1), powf -> __powf (1)");
}

TEST(UseFastIntrinsics, LeavesHostDeviceFunctionsQualifiedCallsCommentsAndNamesAlone) {
  const std::string source =
      "__host__ __device__ float both(float x) { return expf(x); }\n"
      "__global__ void k(float* y, float x) {\n"
      "  // expf(x) in a comment\n"
      "  const char* s = \"logf(x)\";\n"
      "  float expf_scale = 2.f;\n"
      "  y[0] = std::expf(x) + ::logf(x) + expf_scale + exp(x) + __expf(x);\n"
      "}\n";
  const auto r = use_fast_intrinsics(source);
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.source, source);
  EXPECT_NE(r.description.find("calls none of the functions"), std::string::npos);
}

TEST(UseFastIntrinsics, RewritesTheSlowSoftmaxExampleAndItStillCompiles) {
  const auto r = use_fast_intrinsics(testing::read_example("softmax_slow.cu"));
  ASSERT_TRUE(r.changed);
  EXPECT_EQ(r.description, "fast-math intrinsics written in the source: expf -> __expf (2)");
  EXPECT_NE(r.source.find("s += __expf(x[c] - m);"), std::string::npos);
  EXPECT_NE(r.source.find("y[c] = __expf(x[c] - m) / s;"), std::string::npos);
  EXPECT_NVCC_COMPILES("softmax_slow.cu", r.source);
}

}  // namespace
}  // namespace kblaster
