// The include directories and forced includes a kernel's nvcc_flags give, read as nvcc reads
// its command line (issue 21, C: a flag the build honours, plan honours).
#include "core/include_search.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kblaster {
namespace {

using ::testing::ElementsAre;

KernelSpec with_flags(std::vector<std::string> flags) {
  KernelSpec k;
  k.include_dirs = {"include"};
  k.nvcc_flags = std::move(flags);
  return k;
}

TEST(IncludeSearch, EveryFormOfMinusIAddsADirectoryAfterTheConfiguredOnes) {
  const auto dirs = include_search_dirs(
      with_flags({"-O3", "-Ia", "-I", "b", "-I=c", "--include-path", "d,e", "--include-path=f",
                  "-isystem", "g", "-I/usr/local/include", "-I../outside", "-Ih/../i", "-I."}));
  EXPECT_THAT(dirs, ElementsAre("include", "a", "b", "c", "d", "e", "f", "g", "i", "."))
      << "absolute and outside directories are not the repository's";
}

TEST(IncludeSearch, MinusIncludeAndPreIncludeNameForcedFiles) {
  EXPECT_THAT(
      forced_includes(with_flags({"-include", "pre/a.h", "--pre-include=b.h,c.h", "--pre-include",
                                  "./d.h", "-include", "/abs.h", "-Iinclude"})),
      ElementsAre("pre/a.h", "b.h", "c.h", "d.h"));
  EXPECT_TRUE(forced_includes(with_flags({"-O3"})).empty());
}

}  // namespace
}  // namespace kblaster
