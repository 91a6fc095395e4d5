#include "core/nvcc_flag_policy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kblaster {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The refusal for `flags`, or a failure when they pass.
FlagRefusal refusal_of(const std::vector<std::string>& flags) {
  NvccFlagCheck check = check_nvcc_flags(flags);
  EXPECT_TRUE(check.refusal.has_value()) << "allowed: " << ::testing::PrintToString(flags);
  return check.refusal.value_or(FlagRefusal{});
}

TEST(NvccFlagPolicy, FlagsThatChangeWhatIsCompiledPass) {
  const std::vector<std::string> flags = {"-O3",
                                          "-std=c++17",
                                          "--std",
                                          "c++20",
                                          "-DBLOCK=256",
                                          "-D",
                                          "EXTRA",
                                          "-UNDEBUG",
                                          "-lineinfo",
                                          "-use_fast_math",
                                          "--maxrregcount",
                                          "64",
                                          "-maxrregcount=32",
                                          "-arch=sm_90a",
                                          "-gencode",
                                          "arch=compute_90,code=[sm_90,compute_90]",
                                          "-Xptxas",
                                          "-v,-dlcm=ca",
                                          "-Xcompiler",
                                          "-O2,-Wall,-Wno-unused-parameter",
                                          "-lcublas",
                                          "-l",
                                          "cublasLt",
                                          "--expt-relaxed-constexpr",
                                          "-ftz=true",
                                          "--prec-div=false",
                                          "-w"};
  NvccFlagCheck check = check_nvcc_flags(flags);
  ASSERT_FALSE(check.refusal) << check.refusal->message;
  EXPECT_EQ(check.allowed.flags, flags);
  EXPECT_TRUE(check.allowed.include_dirs.empty());
}

TEST(NvccFlagPolicy, FlagsThatRunProgramsOrWriteFilesAreRefused) {
  for (const std::vector<std::string>& flags :
       std::vector<std::vector<std::string>>{{"-ccbin", "tools/g++"},
                                             {"--compiler-bindir=tools"},
                                             {"--keep"},
                                             {"--keep-dir", "/outside"},
                                             {"-Xlinker", "-o/outside/x.so"},
                                             {"--linker-options=-o/x"},
                                             {"-o", "/outside/x.so"},
                                             {"--options-file", "flags.txt"},
                                             {"-optf", "flags.txt"},
                                             {"-L/outside"},
                                             {"-include", "/etc/passwd"},
                                             {"--pre-include=/etc/passwd"},
                                             {"-M"},
                                             {"--run"},
                                             {"-Xnvlink", "-x"},
                                             {"-odir", "/outside"},
                                             {"--dependency-output=/outside/d"}}) {
    const FlagRefusal r = refusal_of(flags);
    EXPECT_EQ(r.index, 0u) << flags[0];
    EXPECT_THAT(r.message, HasSubstr("`" + flags[0] + "` is not an allowed nvcc flag"));
    EXPECT_THAT(r.message, HasSubstr("docs/security.md"));
  }
}

TEST(NvccFlagPolicy, HostAndPtxasOptionsAreCheckedOneByOne) {
  FlagRefusal plugin = refusal_of({"-O3", "-Xcompiler", "-fplugin=./evil.so"});
  EXPECT_EQ(plugin.index, 2u);
  EXPECT_THAT(plugin.message,
              HasSubstr("`-fplugin=./evil.so` is not an allowed host compiler option"));
  FlagRefusal wrapper = refusal_of({"-Xcompiler=-O2,-wrapper,tools/sh"});
  EXPECT_THAT(wrapper.message, HasSubstr("`-wrapper`"));
  FlagRefusal compiler_options = refusal_of({"--compiler-options", "-B/outside"});
  EXPECT_THAT(compiler_options.message, HasSubstr("`-B/outside`"));
  FlagRefusal ptxas = refusal_of({"-Xptxas", "-v,--output-file=/x"});
  EXPECT_THAT(ptxas.message, HasSubstr("`--output-file=/x` is not an allowed ptxas option"));
}

TEST(NvccFlagPolicy, ValuesAreChecked) {
  EXPECT_THAT(refusal_of({"-lfoo"}).message, HasSubstr("`foo` is not a known library"));
  EXPECT_THAT(refusal_of({"-Ofast"}).message, HasSubstr("not an optimisation level"));
  EXPECT_THAT(refusal_of({"-arch=sm_9x"}).message, HasSubstr("not a GPU architecture"));
  EXPECT_THAT(refusal_of({"-gencode", "arch=compute_90,code=/x"}).message,
              HasSubstr("arch=compute_NN,code=sm_NN"));
  EXPECT_THAT(refusal_of({"-D", "1BAD"}).message, HasSubstr("macro name"));
  EXPECT_THAT(refusal_of({"--maxrregcount", "many"}).message, HasSubstr("register count"));
  EXPECT_THAT(refusal_of({"-std=gnu++17"}).message, HasSubstr("not a C++ standard"));
  const FlagRefusal last = refusal_of({"-O3", "-arch"});
  EXPECT_EQ(last.index, 1u);
  EXPECT_THAT(last.message, HasSubstr("needs a value"));
  EXPECT_THAT(refusal_of({"-D" + std::string(300, 'A')}).message, HasSubstr("longer than 256"));
}

TEST(NvccFlagPolicy, LineinfoIsNeverReadAsALibrary) {
  NvccFlagCheck check = check_nvcc_flags({"-lineinfo"});
  EXPECT_FALSE(check.refusal);
}

TEST(NvccFlagPolicy, IncludeDirectoriesMustStayInsideTheRepository) {
  NvccFlagCheck check = check_nvcc_flags({"-Iinclude", "-I", "third_party/./cub", "-O2"});
  ASSERT_FALSE(check.refusal);
  EXPECT_THAT(check.allowed.include_dirs, ElementsAre("include", "third_party/cub"));
  EXPECT_THAT(check.allowed.flags, ElementsAre("-O2"));
  EXPECT_THAT(refusal_of({"-I/usr/include"}).message, HasSubstr("inside the repository"));
  EXPECT_THAT(refusal_of({"-I", "../outside"}).message, HasSubstr("inside the repository"));
  EXPECT_THAT(refusal_of({"--include-path=a/../../b"}).message, HasSubstr("inside the repository"));
}

}  // namespace
}  // namespace kblaster
