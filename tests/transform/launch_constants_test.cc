#include "transform/launch_constants.h"

#include <gtest/gtest.h>

#include "example_kernels.h"

namespace kblaster {
namespace {

std::string literal(const std::string& source, const LaunchConstant& c) {
  return source.substr(c.value_begin, c.value_end - c.value_begin);
}

TEST(LaunchConstants, FindsConstantsUsedAsBlockSizes) {
  const std::string source =
      "#define ROWS 4u  // rows\n"
      "constexpr int kWarps = 2;\n"
      "constexpr int kThreads = kWarps * 32;\n"
      "constexpr int kGrid = 7;\n"
      "constexpr int kUnused = 9;\n"
      "void run(float* p, int n) {\n"
      "  a<<<kGrid, kThreads>>>(p);\n"
      "  b<<<kGrid, dim3(16, ROWS)>>>(p);\n"
      "  c<<<kGrid, n>>>(p);\n"
      "}\n";
  const auto found = find_launch_constants(source);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].name, "ROWS");
  EXPECT_EQ(found[0].kind, LaunchConstant::Kind::macro);
  EXPECT_EQ(found[0].value, 4);
  EXPECT_EQ(literal(source, found[0]), "4u");
  EXPECT_EQ(found[1].name, "kWarps");
  EXPECT_EQ(found[1].kind, LaunchConstant::Kind::variable);
  EXPECT_EQ(literal(source, found[1]), "2");

  const auto r = set_launch_constant(source, found[0], 8);
  ASSERT_TRUE(r.changed);
  EXPECT_EQ(r.source.substr(0, 25), "#define ROWS 8u  // rows\n");
  EXPECT_EQ(r.description, "set ROWS from 4 to 8");
}

TEST(LaunchConstants, IgnoresCommentsAndNonBlockUses) {
  EXPECT_TRUE(find_launch_constants("constexpr int kThreads = 256;\n"
                                    "// k<<<1, kThreads>>>(p);\n"
                                    "void run() { k<<<kThreads, 32>>>(); }\n")
                  .empty());
}

TEST(LaunchConstants, RefusesStaleOrInvalidRewrites) {
  const std::string source = "constexpr int kThreads = 256;\nvoid r() { k<<<1, kThreads>>>(); }\n";
  const auto found = find_launch_constants(source);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(set_launch_constant(source, found[0], 0).changed);
  EXPECT_FALSE(set_launch_constant(source, found[0], 256).changed);
  const auto stale = set_launch_constant("constexpr int kThreads = 128;\n", found[0], 64);
  EXPECT_FALSE(stale.changed);
  EXPECT_EQ(stale.description, "source changed: kThreads is no longer 256 at its offsets");
}

TEST(LaunchConstants, ExampleKernels) {
  const auto axpy_source = testing::read_example("axpy.cu");
  const auto axpy = find_launch_constants(axpy_source);
  ASSERT_EQ(axpy.size(), 1u);
  EXPECT_EQ(axpy[0].name, "kThreads");
  EXPECT_EQ(axpy[0].value, 256);
  const auto rewritten = set_launch_constant(axpy_source, axpy[0], 128);
  EXPECT_NE(rewritten.source.find("constexpr int kThreads = 128;"), std::string::npos);

  const auto transpose = find_launch_constants(testing::read_example("transpose.cu"));
  ASSERT_EQ(transpose.size(), 2u);
  EXPECT_EQ(transpose[0].name, "BLOCK");
  EXPECT_EQ(transpose[0].value, 32);
  EXPECT_EQ(transpose[1].name, "kTileRows");
  EXPECT_EQ(transpose[1].value, 8);

  EXPECT_TRUE(find_launch_constants(testing::read_example("scale_rows.cu")).empty());
  EXPECT_EQ(find_launch_constants(testing::read_example("reduce/reduce.cu")).size(), 2u);

  const auto matmul = find_launch_constants(testing::read_example("matmul_naive.cu"));
  ASSERT_EQ(matmul.size(), 1u);
  EXPECT_EQ(matmul[0].kind, LaunchConstant::Kind::literal);
  EXPECT_EQ(matmul[0].value, 16);
  EXPECT_EQ(matmul[0].also.size(), 3u);
}

// Every literal of the block's value in the launching function, and nothing else.
const std::string kLiteralBlock =
    "constexpr float kScale = 16.0f;\n"
    "int other(int n) { return n * 16; }\n"
    "void run(float* p, int n, int m) {\n"
    "  dim3 block(16, 16);  // 16 x 16 threads\n"
    "  dim3 grid(ceil_div(n, 16), ceil_div(m, 16));\n"
    "  int x16 = 160 + n;\n"
    "  float f = 16.0f * x16;\n"
    "  const char* s = \"16\";\n"
    "  k<<<grid, block>>>(p, f, s);\n"
    "}\n";

TEST(LaunchConstants, RewritesEveryUseOfABlockLiteralInItsFunction) {
  const auto found = find_launch_constants(kLiteralBlock);
  ASSERT_EQ(found.size(), 1u);
  const auto& k = found[0];
  EXPECT_EQ(k.kind, LaunchConstant::Kind::literal);
  EXPECT_EQ(k.value, 16);
  EXPECT_EQ(k.name, "literal 16 of run's block");
  EXPECT_EQ(k.value_begin, kLiteralBlock.find("16, 16)"));
  EXPECT_EQ(k.also.size(), 3u);

  const auto r = set_launch_constant(kLiteralBlock, k, 32);
  ASSERT_TRUE(r.changed) << r.description;
  EXPECT_EQ(r.description, "set the literal 16 of the block (and its 3 other uses in run) to 32");
  std::string expected = kLiteralBlock;
  for (const char* line : {"dim3 block(16, 16);", "dim3 grid(ceil_div(n, 16), ceil_div(m, 16));"}) {
    std::string rewritten = line;
    for (auto at = rewritten.find("16"); at != std::string::npos; at = rewritten.find("16", at))
      rewritten.replace(at, 2, "32");
    expected.replace(expected.find(line), rewritten.size(), rewritten);
  }
  EXPECT_EQ(r.source, expected);
}

TEST(LaunchConstants, InlineDim3LiteralsOfOneAreNotOffered) {
  const std::string source =
      "void run(float* p, int n) {\n"
      "  k<<<ceil_div(n, 128), dim3(128, 1)>>>(p, 1);\n"
      "}\n";
  const auto found = find_launch_constants(source);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].value, 128);
  EXPECT_EQ(literal(source, found[0]), "128");
  EXPECT_EQ(found[0].also.size(), 1u);
  const auto r = set_launch_constant(source, found[0], 256);
  ASSERT_TRUE(r.changed);
  EXPECT_EQ(r.source,
            "void run(float* p, int n) {\n"
            "  k<<<ceil_div(n, 256), dim3(256, 1)>>>(p, 1);\n"
            "}\n");
  // A dim3 that mixes literals with named constants offers only the names.
  const auto mixed =
      find_launch_constants("constexpr int kRows = 2;\nvoid r() { k<<<1, dim3(kRows, 4)>>>(); }\n");
  ASSERT_EQ(mixed.size(), 1u);
  EXPECT_EQ(mixed[0].name, "kRows");
}

TEST(LaunchConstants, RefusesAStaleLiteralBlock) {
  const auto found = find_launch_constants(kLiteralBlock);
  ASSERT_EQ(found.size(), 1u);
  std::string stale = kLiteralBlock;
  const auto [begin, end] = found[0].also.back();  // ceil_div(m, 16)
  stale.replace(begin, end - begin, "17");
  const auto r = set_launch_constant(stale, found[0], 32);
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.source, stale);
  EXPECT_EQ(r.description,
            "source changed: literal 16 of run's block is no longer 16 at its offsets");
  stale.replace(begin, end - begin, "160");  // the offsets now cut a longer number
  EXPECT_FALSE(set_launch_constant(stale, found[0], 32).changed);
}

TEST(LaunchConstants, RefusesBlocksOverTheThreadLimit) {
  const auto found = find_launch_constants(kLiteralBlock);
  ASSERT_EQ(found.size(), 1u);
  const auto r = set_launch_constant(kLiteralBlock, found[0], 64);
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(r.source, kLiteralBlock);
  EXPECT_EQ(r.description, "64 would give k blocks of 4096 threads, over 1024");

  const std::string one_d = "constexpr int kWarps = 4;\nvoid r() { k<<<1, kWarps * 32>>>(); }\n";
  const auto warps = find_launch_constants(one_d);
  ASSERT_EQ(warps.size(), 1u);
  EXPECT_TRUE(set_launch_constant(one_d, warps[0], 32).changed);  // 1024 threads
  EXPECT_FALSE(set_launch_constant(one_d, warps[0], 64).changed);
}

TEST(LaunchConstants, ALiteralRewriteLeavesOtherNumbersAlone) {
  const std::string source =
      "void run(float* p, int n) {\n"
      "  const double eps = 1e-16;  int mask = n & 0x10;  float h = 1.5e16f;\n"
      "  k<<<n / 16, dim3(16, 2)>>>(p, n / 2, eps, mask, h);\n"
      "}\n";
  const auto found = find_launch_constants(source);
  ASSERT_EQ(found.size(), 1u) << "the 2 of dim3(16, 2) is below 8 and not offered";
  EXPECT_EQ(found[0].value, 16);
  const auto r = set_launch_constant(source, found[0], 32);
  ASSERT_TRUE(r.changed) << r.description;
  EXPECT_EQ(r.source,
            "void run(float* p, int n) {\n"
            "  const double eps = 1e-16;  int mask = n & 0x10;  float h = 1.5e16f;\n"
            "  k<<<n / 32, dim3(32, 2)>>>(p, n / 2, eps, mask, h);\n"
            "}\n");
}

TEST(LaunchConstants, AFileScopeDim3OfLiteralsIsNotOffered) {
  // Two launchers share the block; rewriting one launcher's grid math would
  // leave the other's grid short.
  EXPECT_TRUE(find_launch_constants("const dim3 kBlock(16, 16);\n"
                                    "void f1(int n) { k<<<n / 16, kBlock>>>(); }\n"
                                    "void f2(int n) { k<<<n / 16, kBlock>>>(); }\n")
                  .empty());
}

TEST(LaunchConstants, RefusesBlocksOverTheKernelsLaunchBounds) {
  const std::string source = "__global__ void __launch_bounds__(256) k(float* p) {}\n" +
                             std::string(kLiteralBlock.substr(kLiteralBlock.find("void run")));
  const auto found = find_launch_constants(source);
  ASSERT_EQ(found.size(), 1u);
  const auto up = set_launch_constant(source, found[0], 32);
  EXPECT_FALSE(up.changed);
  EXPECT_EQ(up.description,
            "32 would give k blocks of 1024 threads, over its __launch_bounds__ of 256");
  EXPECT_TRUE(set_launch_constant(source, found[0], 8).changed) << "64 threads fit under 256";
}

TEST(LaunchConstants, RewrittenLiteralBlockCompilesWithNvcc) {
  const auto source = testing::read_example("matmul_naive.cu");
  const auto found = find_launch_constants(source);
  ASSERT_EQ(found.size(), 1u);
  const auto r = set_launch_constant(source, found[0], 32);
  ASSERT_TRUE(r.changed) << r.description;
  EXPECT_EQ(r.description,
            "set the literal 16 of the block (and its 3 other uses in matmul) to 32");
  EXPECT_NE(r.source.find("dim3 block(32, 32)"), std::string::npos);
  EXPECT_NE(r.source.find("ceil_div(N, 32)"), std::string::npos);
  EXPECT_NE(r.source.find("ceil_div(M, 32)"), std::string::npos);
  EXPECT_NVCC_COMPILES("matmul_naive.cu", r.source);
}

TEST(LaunchConstants, RewrittenExampleCompilesWithNvcc) {
  const auto source = testing::read_example("transpose.cu");
  const auto found = find_launch_constants(source);
  ASSERT_EQ(found.size(), 2u);
  const auto r = set_launch_constant(source, found[0], 64);  // BLOCK 64: still a multiple of 8
  ASSERT_TRUE(r.changed);
  EXPECT_NVCC_COMPILES("transpose.cu", r.source);
}

}  // namespace
}  // namespace kblaster
