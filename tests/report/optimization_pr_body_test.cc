// An optimization PR's body written from a real H200 optimize result: the speedup with its
// CI, the verification, the path with the profile delta, the lessons or their absence, the
// commands that reproduce it, what a sweep left out; and untrusted text kept inert.
#include "report/optimization_pr_body.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/markup_escape.h"
#include "h200_fixtures.h"
#include "report/reproduce_commands.h"
#include "report/speedup_caveat.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const OptimizationPrFacts kMatmul{.kernels = {"matmul_naive"},
                                  .branch = "kblaster/optimize/matmul_naive",
                                  .base_branch = "main",
                                  .repo_dir = "examples/kernels",
                                  .left_out = {}};

TEST(OptimizationPrBody, SaysTheSpeedupWithItsCIAndHowItWasVerified) {
  auto body = optimization_pr_body(testing::optimize_with_best_source(), kMatmul);
  ASSERT_TRUE(body.ok()) << body.error().message;
  EXPECT_THAT(*body, HasSubstr("## kblaster: matmul\\_naive 1.21\u00d7 faster, verified"));
  EXPECT_THAT(*body, HasSubstr("| matmul\\_naive | `examples/kernels/kernels/matmul_naive.cu` | "
                               "1.21\u00d7 (1.207\u20131.212) | FASTER |"));
  EXPECT_THAT(*body, HasSubstr("- verified: every size, against the kernel's reference, at each "
                               "step and in the final A/B"));
  EXPECT_THAT(*body, HasSubstr("- seeds: 1007, 1008, 1009"));
  EXPECT_THAT(*body, HasSubstr("re-verified on changed inputs (A: passed, B: passed)"));
  EXPECT_THAT(*body, HasSubstr("- sizes: every size the kernel declares in kblaster.toml (this "
                               "result does not list them)"))
      << "this result predates `sizes`";
  EXPECT_THAT(*body, HasSubstr("- final A/B: FASTER: B/A 0.8265"));
  EXPECT_THAT(*body, HasSubstr("its 99% interval. " + markdown_escape(speedup_caveat())))
      << "issue 21 B: a speedup is one GPU's; another of the same model can differ beyond its CI";
}

TEST(OptimizationPrBody, CarriesThePathTheProfileDeltaTheLessonsAndTheCommands) {
  auto result = testing::optimize_with_best_source();
  auto body = optimization_pr_body(result, kMatmul);
  ASSERT_TRUE(body.ok()) << body.error().message;
  EXPECT_THAT(*body, HasSubstr("1. `launch_geometry_tuning`: set the literal 16 of the block "
                               "(and its 3 other uses in matmul) to 32"));
  EXPECT_THAT(*body,
              HasSubstr("**matmul\\_naive**: state memory.l1\\_bound \u2192 memory.l1\\_bound"));
  EXPECT_THAT(*body, HasSubstr("| duration | 1597 us | 1314 us | -17.7% |"));
  EXPECT_THAT(*body, HasSubstr("### Lessons from the KB\n\nNone were recorded in this result."));
  EXPECT_THAT(*body, HasSubstr("kblaster optimize examples/kernels --kernel matmul_naive "
                               "--search-seed 7 --breadth 4 --depth 3 --max-time 90.0 "
                               "--patience 2 --seed 1007\n"));
  EXPECT_THAT(*body, HasSubstr("git show origin/kblaster/optimize/matmul_naive:examples/kernels/"
                               "kernels/matmul_naive.cu > examples/kernels/kernels/"
                               "matmul_naive.kblaster.cu\n"));
  EXPECT_THAT(*body, HasSubstr("kblaster compare examples/kernels --a matmul_naive --b-source "
                               "kernels/matmul_naive.kblaster.cu --seed 1007\n"));
  EXPECT_THAT(*body, HasSubstr("- GPU: NVIDIA H200"));
  EXPECT_THAT(*body, Not(HasSubstr("Left out")));

  result["kernels"][1]["steps"][0]["lesson"] =
      "memory.l1_bound / restrict_pointers: observed +0.0%";
  result["kernels"][1]["sizes"] = {{{"M", 2048}, {"N", 2048}, {"K", 2048}},
                                   {{"M", 33}, {"N", 17}, {"K", 5}}};
  auto with = optimization_pr_body(result, kMatmul);
  ASSERT_TRUE(with.ok()) << with.error().message;
  EXPECT_THAT(*with, HasSubstr("- **matmul\\_naive**: memory.l1\\_bound / restrict\\_pointers: "
                               "observed +0.0%\n"));
  EXPECT_THAT(*with, HasSubstr("- sizes: K=2048, M=2048, N=2048 (timed); K=5, M=33, N=17\n"));
}

TEST(OptimizationPrBody, ASweepsBodyListsWhatItLeftOut) {
  OptimizationPrFacts facts = kMatmul;
  facts.branch = "kblaster/optimize/sweep";
  facts.left_out = {{"softmax_slow", "needs a build setting (nvcc_flags: add \"-use_fast_math\")"}};
  auto body = optimization_pr_body(testing::optimize_with_best_source(), facts);
  ASSERT_TRUE(body.ok()) << body.error().message;
  EXPECT_THAT(*body, HasSubstr("### Left out of this pull request\n\n- **softmax\\_slow**: needs a "
                               "build setting (nvcc\\_flags: add \"-use\\_fast\\_math\")"));
}

TEST(OptimizationPrBody, UntrustedTextCannotBreakOutOfItsMarkupOrTheCommands) {
  auto result = testing::optimize_with_best_source();
  auto& k = result["kernels"][1];
  k["changes"][0] = "<img src=x onerror=alert(1)> @octocat";
  k["source"] = "kernels/m`$(rm -rf ~)`\n```\n<b>.cu";
  auto body = optimization_pr_body(result, kMatmul);
  ASSERT_TRUE(body.ok()) << body.error().message;
  EXPECT_THAT(*body, Not(HasSubstr("<img")));
  EXPECT_THAT(*body, Not(HasSubstr("@octocat")));
  EXPECT_THAT(*body, HasSubstr("````sh\n")) << "a fence longer than the source's backticks";
  EXPECT_THAT(*body, HasSubstr("'origin/kblaster/optimize/matmul_naive:examples/kernels/kernels/"
                               "m`$(rm -rf ~)`\n```\n<b>.cu'"));
}

TEST(OptimizationPrBody, ASourceFormSaysWhatWasWrittenAsSourceAndCarriesTheFormsSpeedup) {
  const OptimizationPrFacts facts{.kernels = {"softmax_slow"},
                                  .branch = "kblaster/optimize/softmax_slow",
                                  .base_branch = "main",
                                  .repo_dir = "examples/kernels",
                                  .left_out = {}};
  auto result = testing::optimize_with_source_form();
  result["kernels"][0]["source_form"]["against_best"] = {
      {"ratio", 1.02}, {"ci_low", 1.01}, {"ci_high", 1.03}};
  result["kernels"][0]["source_form"]["source_defaults"] = {"BLOCK"};
  auto body = optimization_pr_body(result, facts);
  ASSERT_TRUE(body.ok()) << body.error().message;
  EXPECT_THAT(*body, HasSubstr("## kblaster: softmax\\_slow 1.38\u00d7 faster, verified"))
      << "the form's speedup, not the flag build's";
  EXPECT_THAT(*body, HasSubstr("### Build settings written as source"));
  EXPECT_THAT(*body, HasSubstr("- nvcc\\_flags \"-use\\_fast\\_math\": expf -&gt; \\_\\_expf (2)"));
  EXPECT_THAT(*body,
              HasSubstr("time of the source form / time of the best with its settings: 1.02"));
  EXPECT_THAT(*body,
              HasSubstr("kblaster.toml still lists `BLOCK`'s values with the old one first"));
}

TEST(OptimizationPrBody, AKernelTheResultLacksIsAnError) {
  OptimizationPrFacts facts = kMatmul;
  facts.kernels = {"nope"};
  EXPECT_FALSE(optimization_pr_body(testing::optimize_with_best_source(), facts).ok());
}

TEST(ReproduceCommands, ShellWordsAreQuotedOnlyWhenTheyNeedIt) {
  EXPECT_EQ(shell_word("kernels/a-b_c.cu"), "kernels/a-b_c.cu");
  EXPECT_EQ(shell_word("-rf"), "'-rf'");
  EXPECT_EQ(shell_word("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_word(""), "''");
  EXPECT_EQ(code_block("a ``` b"), "````sh\na ``` b\n````\n");
}

}  // namespace
}  // namespace kblaster
