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
