// The source form of a best candidate: which build settings are written into its source,
// how it is then built, and which settings have no source form.
#include "search/source_form.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "transform/example_kernels.h"

namespace kblaster {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(SourceForm, FastMathAndARegisterCapBecomeSourceAndLeaveTheFlags) {
  Candidate best;
  best.source = testing::read_example("softmax_slow.cu");
  best.extra_flags = {"-use_fast_math", "--maxrregcount=64"};
  const SourceForm form = source_form_of(best);
  EXPECT_TRUE(form.complete());
  EXPECT_TRUE(form.candidate.extra_flags.empty());
  EXPECT_THAT(form.candidate.source, HasSubstr("__expf(x[c] - m)"));
  EXPECT_THAT(form.candidate.source, HasSubstr("__global__ __maxnreg__(64) void"));
  EXPECT_THAT(form.rewrites,
              ElementsAre(HasSubstr("-use_fast_math"), HasSubstr("__maxnreg__(64)")));
  EXPECT_NE(form.candidate.fingerprint(), best.fingerprint());
  EXPECT_NVCC_COMPILES("softmax_slow.cu", form.candidate.source);
}

TEST(SourceForm, ATunableBecomesTheSourceDefaultBuiltWithNoDefine) {
  Candidate best;
  best.source = testing::read_example("transpose.cu");
  best.macros = {{"BLOCK", "16"}};
  const SourceForm form = source_form_of(best);
  EXPECT_TRUE(form.complete());
  EXPECT_TRUE(form.candidate.macros.empty());
  EXPECT_EQ(form.candidate.source_defaults, std::set<std::string>{"BLOCK"});
  EXPECT_THAT(form.candidate.source, HasSubstr("#define BLOCK 16"));
  EXPECT_THAT(form.rewrites,
              ElementsAre("tunable BLOCK = 16: #define BLOCK 16 (was 32) in the source"));

  // At the value the source already has, nothing is rewritten but the -D still goes.
  best.macros = {{"BLOCK", "32"}};
  const SourceForm same = source_form_of(best);
  EXPECT_EQ(same.candidate.source, best.source);
  EXPECT_EQ(same.candidate.source_defaults, std::set<std::string>{"BLOCK"});
  Candidate plain;
  plain.source = best.source;
  EXPECT_NE(same.candidate.fingerprint(), plain.fingerprint())
      << "built with no -D: not the plain source's build, which passes the first value";
}

TEST(SourceForm, WhatHasNoSourceFormIsNamedWithWhy) {
  Candidate best;
  best.source = testing::read_example("axpy.cu");
  best.extra_flags = {"-Xptxas=-dlcm=ca", "-use_fast_math"};
  best.arch = "sm_90a";
  best.macros = {{"UNROLL", "4"}};
  best.launcher_args = {{"block_size", 256}};
  const SourceForm form = source_form_of(best);
  EXPECT_FALSE(form.complete());
  EXPECT_THAT(form.not_carried,
              ElementsAre(HasSubstr("nvcc_flags \"-Xptxas=-dlcm=ca\": no source form"),
                          HasSubstr("-use_fast_math\": device code calls none"),
                          HasSubstr("arch sm_90a: a target architecture is chosen by the build"),
                          HasSubstr("tunable UNROLL = 4: the source has no `#define UNROLL"),
                          HasSubstr("launcher argument block_size = 256")));
  EXPECT_EQ(form.candidate.extra_flags,
            (std::vector<std::string>{"-Xptxas=-dlcm=ca", "-use_fast_math"}));
}

}  // namespace
}  // namespace kblaster
