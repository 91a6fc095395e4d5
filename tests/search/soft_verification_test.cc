// Static soft verification: what a candidate gained against its baseline.
#include "search/soft_verification.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kblaster {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kBase = R"CU(
__global__ void k(float* y) { y[threadIdx.x] = 1; }
void launch(float* y) { k<<<1, 32>>>(y); }
)CU";

std::vector<std::string> with(const std::string& addition) {
  return soft_verification_findings(kBase, std::string(kBase) + addition);
}

TEST(SoftVerification, AnUnchangedOrHarmlessCandidatePasses) {
  EXPECT_TRUE(soft_verification_findings(kBase, kBase).empty());
  EXPECT_TRUE(with("static int helper(int x) { return x * 2; }\n").empty());
}

TEST(SoftVerification, EachRuleNamesWhatTheCandidateGained) {
  EXPECT_THAT(with("cudaStream_t mine;\n"), ElementsAre(HasSubstr("stream of its own")));
  EXPECT_THAT(with("void f() { std::thread t([]{}); }\n"), ElementsAre(HasSubstr("host threads")));
  EXPECT_THAT(with("__device__ long long t0() { return clock64(); }\n"),
              ElementsAre(HasSubstr("reads a clock")));
  EXPECT_THAT(with("__device__ unsigned long long g() { unsigned long long t;\n"
                   "  asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t)); return t; }\n"),
              ElementsAre(HasSubstr("clock register in inline PTX")));
  EXPECT_THAT(with("void g(float* a, float* b) { cublasSaxpy(0, 1, 0, a, 1, b, 1); }\n"),
              ElementsAre(HasSubstr("library shortcut")));
  EXPECT_THAT(with("void s() { cudaDeviceSynchronize(); }\n"),
              ElementsAre(HasSubstr("synchronises the device")));
}

TEST(SoftVerification, CommentsAndStringsDoNotCount) {
  EXPECT_TRUE(with("// cudaDeviceSynchronize(); std::thread\n"
                   "const char* note = \"cudaStreamCreate cublasSgemm\";\n")
                  .empty());
}

TEST(SoftVerification, FewerLaunchesThanTheBaselineIsRemovedWork) {
  const std::string two = std::string(kBase) + "void again(float* y) { k<<<1, 32>>>(y); }\n";
  EXPECT_THAT(soft_verification_findings(two, kBase),
              ElementsAre(HasSubstr("launches fewer kernels than the baseline (1 against 2)")));
}

TEST(SoftVerification, WhatTheBaselineAlreadyDidIsAllowed) {
  const std::string base = std::string(kBase) + "void s() { cudaDeviceSynchronize(); }\n";
  EXPECT_TRUE(soft_verification_findings(base, base + "int unrelated = 0;\n").empty());
}

TEST(SoftVerification, WordsOnlyCountWhole) {
  EXPECT_TRUE(with("int mycudaDeviceSynchronize = 0; int clock = 1; int mystd = 2;\n"
                   "namespace mycub { int x; }\n")
                  .empty());
  EXPECT_THAT(with("void h() { std::chrono::steady_clock::now(); }\n"),
              ElementsAre(HasSubstr("reads a clock")));
  EXPECT_THAT(with("void h() { cub::DeviceReduce::Sum(0, 0, 0, 0, 0); }\n"),
              ElementsAre(HasSubstr("library shortcut")));
  EXPECT_THAT(with("#  pragma   omp parallel for\nvoid h() {}\n"),
              ElementsAre(HasSubstr("host threads")));
}

// A candidate is model output or a pull request's code, so its lines can be of any
// length; the regex matcher these rules once used recursed per character matched.
TEST(SoftVerification, AnIdentifierOfMegabytesIsScannedWithoutExhaustingTheStack) {
  const std::string name(4'000'000, 'a');
  EXPECT_THAT(with("cudaStream_t " + name + ";\n"), ElementsAre(HasSubstr("stream of its own")));
  EXPECT_TRUE(with("int " + name + " = 0; const char* p = \"%" + name + "\";\n").empty());
}

}  // namespace
}  // namespace kblaster
