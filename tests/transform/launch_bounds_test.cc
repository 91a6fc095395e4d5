#include "transform/launch_bounds.h"

#include <gtest/gtest.h>

#include "example_kernels.h"

namespace kblaster {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(AddLaunchBounds, LiteralAndLocalConstantBlockSizes) {
  const auto r = add_launch_bounds(
      "__global__ void a(float* p) {}\n"
      "__global__ void b(float* p) {}\n"
      "void run(float* p) {\n"
      "  a<<<4, 128>>>(p);\n"
      "  constexpr int kThreads = 64 * 4;\n"
      "  b<<<4, kThreads, 0, stream>>>(p);\n"
      "}\n");
  ASSERT_TRUE(r.changed) << r.description;
  EXPECT_TRUE(contains(r.source, "__global__ __launch_bounds__(128) void a(float* p)"));
  // kThreads is local to run(), so the kernel gets the number.
  EXPECT_TRUE(contains(r.source, "__global__ __launch_bounds__(256) void b(float* p)"));
  EXPECT_EQ(r.description, "added __launch_bounds__ to a (128), b (256)");
}

TEST(AddLaunchBounds, Dim3AndDefinesAndTemplates) {
  const auto r = add_launch_bounds(
      "#define ROWS 4  // rows\n"
      "template <typename T, int N>\n"
      "__global__ void t(T* p) {}\n"
      "__global__ void d(float* p) {}\n"
      "void run(float* p) {\n"
      "  t<float, 2><<<1, dim3(32, ROWS)>>>(p);\n"
      "  const unsigned cols = 16;\n"
      "  dim3 block{cols, 2};\n"
      "  d<<<1, block>>>(p);\n"
      "}\n");
  ASSERT_TRUE(r.changed) << r.description;
  EXPECT_TRUE(contains(
      r.source, "template <typename T, int N>\n__global__ __launch_bounds__(32 * ROWS) void t("));
  EXPECT_TRUE(contains(r.source, "__global__ __launch_bounds__(32) void d("));
}

TEST(AddLaunchBounds, LeavesNonConstantAndMixedBlockSizesAlone) {
  const std::string source =
      "__global__ void a(float* p) {}\n"
      "__global__ void b(float* p) {}\n"
      "void run(float* p, int threads) {\n"
      "  a<<<4, threads>>>(p);\n"
      "  b<<<4, 128>>>(p);\n"
      "  b<<<4, 256>>>(p);\n"
      "  dim3 block(64);\n"
      "  block.x = threads;\n"
      "  a<<<4, block>>>(p);\n"
      "}\n";
  const auto r = add_launch_bounds(source);
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.source, source);
  EXPECT_EQ(r.description,
            "no __launch_bounds__ added: a: block size `threads` is not a compile-time constant; "
            "b: launched with different block sizes (128, 256)");
}

TEST(AddLaunchBounds, KeepsAnExistingBoundAndIgnoresComments) {
  const std::string bounded =
      "__global__ void __launch_bounds__(128) a(float* p) {}\n"
      "void run(float* p) { a<<<1, 128>>>(p); }\n";
  EXPECT_EQ(add_launch_bounds(bounded).description,
            "no __launch_bounds__ added: a: already has __launch_bounds__");
  const std::string commented =
      "__global__ void a(float* p) {}\n"
      "// a<<<1, 128>>>(p);\n"
      "const char* s = \"a<<<1, 128>>>(p);\";\n";
  const auto r = add_launch_bounds(commented);
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.description, "no kernel launch in this file");
}

TEST(AddLaunchBounds, ExampleKernels) {
  const auto axpy = add_launch_bounds(testing::read_example("axpy.cu"));
  EXPECT_TRUE(contains(axpy.source, "__global__ __launch_bounds__(256) void axpy_kernel("));
  // A file-scope constant stays a name, so a later change of it keeps the bound exact.
  const auto softmax = add_launch_bounds(testing::read_example("softmax.cu"));
  EXPECT_TRUE(contains(softmax.source,
                       "__global__ __launch_bounds__(kSoftmaxThreads) void softmax_kernel("));
  const auto transpose = add_launch_bounds(testing::read_example("transpose.cu"));
  EXPECT_TRUE(contains(transpose.source,
                       "__global__ __launch_bounds__(BLOCK * kTileRows) void transpose_kernel("));
  EXPECT_EQ(transpose.description,
            "added __launch_bounds__ to transpose_kernel (BLOCK * kTileRows = 256)");
  const auto matmul = add_launch_bounds(testing::read_example("matmul_naive.cu"));
  EXPECT_TRUE(contains(matmul.source, "__global__ __launch_bounds__(256) void matmul_kernel("));
  const auto reduce = add_launch_bounds(testing::read_example("reduce/reduce.cu"));
  EXPECT_TRUE(contains(reduce.source,
                       "__global__ __launch_bounds__(kReduceThreads) void reduce_sum_blocks("));
  EXPECT_TRUE(contains(reduce.source,
                       "__global__ __launch_bounds__(kReduceMaxBlocks) void reduce_sum_final("));
  const auto scale = add_launch_bounds(testing::read_example("scale_rows.cu"));
  EXPECT_FALSE(scale.changed);
  EXPECT_EQ(scale.description,
            "no __launch_bounds__ added: scale_rows_kernel: block size "
            "`block_size` is not a compile-time constant");
}

TEST(AddLaunchBounds, RewrittenExampleCompilesWithNvcc) {
  const auto r = add_launch_bounds(testing::read_example("transpose.cu"));
  ASSERT_TRUE(r.changed);
  EXPECT_NVCC_COMPILES("transpose.cu", r.source);
}

}  // namespace
}  // namespace kblaster
