#include "core/path_glob.h"

#include <gtest/gtest.h>

#include "core/source_tree.h"
#include "core/suggest.h"

namespace kblaster {
namespace {

TEST(PathGlob, DoubleStarMatchesAnyDepthIncludingNone) {
  EXPECT_TRUE(glob_match("**/*.kblaster.toml", "a.kblaster.toml"));
  EXPECT_TRUE(glob_match("**/*.kblaster.toml", "kernels/reduce/reduce.kblaster.toml"));
  EXPECT_FALSE(glob_match("**/*.kblaster.toml", "kernels/reduce.toml"));
  EXPECT_TRUE(glob_match("kernels/**", "kernels/a/b.cu"));
}

TEST(PathGlob, SingleStarAndQuestionMarkStayInOneComponent) {
  EXPECT_TRUE(glob_match("kernels/*.toml", "kernels/x.toml"));
  EXPECT_FALSE(glob_match("kernels/*.toml", "kernels/sub/x.toml"));
  EXPECT_TRUE(glob_match("k?.cu", "k1.cu"));
  EXPECT_FALSE(glob_match("k?.cu", "k/.cu"));
}

TEST(SourceTreePaths, NormalizeRefusesEscapes) {
  EXPECT_EQ(normalize_relative("a/./b/../c").value(), "a/c");
  EXPECT_FALSE(normalize_relative("../x").has_value());
  EXPECT_FALSE(normalize_relative("/etc/passwd").has_value());
  EXPECT_EQ(resolve_beside("kernels/reduce/r.kblaster.toml", "../ref/r.cpp").value(), "kernels/ref/r.cpp");
  EXPECT_EQ(resolve_beside("kblaster.toml", "k/a.cu").value(), "k/a.cu");
}

TEST(Suggest, FindsCloseNamesOnly) {
  std::vector<std::string> fields = {"tolerance", "tunables", "launcher", "source"};
  EXPECT_EQ(did_you_mean("tolerence", fields), "; did you mean `tolerance`?");
  EXPECT_EQ(did_you_mean("lanucher", fields), "; did you mean `launcher`?");
  EXPECT_EQ(did_you_mean("zzzzzz", fields), "");
}

}  // namespace
}  // namespace kblaster
