#include "transform/macro_default.h"

#include <gtest/gtest.h>

#include "example_kernels.h"

namespace kblaster {
namespace {

TEST(SetMacroDefault, RewritesTheGuardedDefaultAndKeepsItsComment) {
  const auto r = set_macro_default(
      "#ifndef BLOCK\n#define BLOCK 32  // tile edge\n#endif\nint a[BLOCK];\n", "BLOCK", "16");
  ASSERT_TRUE(r.changed);
  EXPECT_EQ(r.source, "#ifndef BLOCK\n#define BLOCK 16  // tile edge\n#endif\nint a[BLOCK];\n");
  EXPECT_EQ(r.description, "#define BLOCK 16 (was 32) in the source");
  EXPECT_EQ(macro_default(r.source, "BLOCK"), "16");
}

TEST(SetMacroDefault, TheTransposeExampleTakesItsOtherTileAndStillCompiles) {
  const auto r = set_macro_default(testing::read_example("transpose.cu"), "BLOCK", "16");
  ASSERT_TRUE(r.changed) << r.description;
  EXPECT_NE(r.source.find("#define BLOCK 16  // tile edge"), std::string::npos);
  EXPECT_NVCC_COMPILES("transpose.cu", r.source);
}

TEST(SetMacroDefault, RefusesWhatItCannotSetUnambiguously) {
  const auto none = set_macro_default("int a[BLOCK];\n// #define BLOCK 8\n", "BLOCK", "16");
  EXPECT_FALSE(none.changed);
  EXPECT_NE(none.description.find("has no `#define BLOCK <value>`"), std::string::npos);

  const auto twice =
      set_macro_default("#if X\n#define BLOCK 8\n#else\n#define BLOCK 4\n#endif\n", "BLOCK", "16");
  EXPECT_FALSE(twice.changed);
  EXPECT_NE(twice.description.find("defines BLOCK 2 times"), std::string::npos);

  const auto function_like = set_macro_default("#define BLOCK(x) (x)\n", "BLOCK", "16");
  EXPECT_FALSE(function_like.changed);

  const auto continued = set_macro_default("#define BLOCK \\\n  32\n", "BLOCK", "16");
  EXPECT_FALSE(continued.changed);
  EXPECT_NE(continued.description.find("continued"), std::string::npos);

  const auto same = set_macro_default("#define BLOCK 16\n", "BLOCK", "16");
  EXPECT_FALSE(same.changed);
  EXPECT_EQ(macro_default("#define BLOCK 16\n", "BLOCK"), "16");
  EXPECT_EQ(macro_default("#define BLOCKS 16\n", "BLOCK"), std::nullopt);
}

}  // namespace
}  // namespace kblaster
