#include "transform/loop_unroll.h"

#include <gtest/gtest.h>

#include "example_kernels.h"

namespace kblaster {
namespace {

TEST(UnrollConstantLoops, AddsPragmaWithTheLoopsIndentation) {
  const auto r = unroll_constant_loops(
      "#define TILE 4\n"
      "constexpr int kItems = 8;\n"
      "__global__ void k(float* p) {\n"
      "  for (int k = 0; k < kItems; ++k) {\n"
      "    for (unsigned j = TILE; j > 0; j--) p[k] += j;\n"
      "  }\n"
      "  for (int s = 16; s > 0; s >>= 1) p[0] += s;\n"
      "}\n");
  ASSERT_TRUE(r.changed);
  EXPECT_EQ(r.source,
            "#define TILE 4\n"
            "constexpr int kItems = 8;\n"
            "__global__ void k(float* p) {\n"
            "  #pragma unroll\n"
            "  for (int k = 0; k < kItems; ++k) {\n"
            "    #pragma unroll\n"
            "    for (unsigned j = TILE; j > 0; j--) p[k] += j;\n"
            "  }\n"
            "  #pragma unroll\n"
            "  for (int s = 16; s > 0; s >>= 1) p[0] += s;\n"
            "}\n");
  EXPECT_EQ(r.description, "added #pragma unroll to 3 loops with constant trip counts (8, 4, 5)");
}

TEST(UnrollConstantLoops, LeavesOtherLoopsAlone) {
  const std::string source =
      "#define BLOCK 32\n"
      "constexpr int kTileRows = 8;\n"
      "__global__ void k(float* p, int n) {\n"
      "  for (int j = threadIdx.y; j < BLOCK; j += kTileRows) p[j] = 0;\n"
      "  for (int i = 0; i < n; ++i) p[i] = 0;\n"
      "  #pragma unroll 2\n"
      "  for (int i = 0; i < 8; ++i) p[i] = 0;\n"
      "  for (int i = 0; i < 100000; ++i) p[i] = 0;\n"
      "  for (int i = 0; i < 1; ++i) p[i] = 0;\n"
      "  // for (int i = 0; i < 8; ++i) p[i] = 0;\n"
      "}\n"
      "void host(float* p) {\n"
      "  for (int i = 0; i < 8; ++i) p[i] = 0;\n"
      "}\n";
  const auto r = unroll_constant_loops(source);
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.source, source);
  EXPECT_EQ(r.description, "no device loop with a constant trip count lacks #pragma unroll");
}

TEST(UnrollConstantLoops, ExampleKernels) {
  // The warp reduction in the examples' shared header is the one constant loop.
  const std::string header = [] {
    std::ifstream in(testing::example_root() / "include" / "kb_common.cuh");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }();
  const auto r = unroll_constant_loops(header);
  ASSERT_TRUE(r.changed);
  EXPECT_NE(r.source.find("  #pragma unroll\n  for (int offset = 16; offset > 0; offset >>= 1)"),
            std::string::npos);
  EXPECT_EQ(r.description, "added #pragma unroll to 1 loop with constant trip counts (5)");
  EXPECT_FALSE(unroll_constant_loops(r.source).changed);  // idempotent
  for (const auto* name : {"transpose.cu", "softmax_slow.cu", "matmul_naive.cu", "softmax.cu"}) {
    const auto source = testing::read_example(name);
    ASSERT_FALSE(source.empty()) << name;
    EXPECT_FALSE(unroll_constant_loops(source).changed) << name;
  }
}

TEST(UnrollConstantLoops, RewrittenExampleCompilesWithNvcc) {
  std::ifstream in(testing::example_root() / "include" / "kb_common.cuh");
  std::ostringstream header;
  header << in.rdbuf();
  const auto r = unroll_constant_loops(header.str());
  ASSERT_TRUE(r.changed);
  EXPECT_NVCC_COMPILES("softmax.cu", testing::read_example("softmax.cu"),
                       std::pair<std::string, std::string>{"kb_common.cuh", r.source});
}

}  // namespace
}  // namespace kblaster
