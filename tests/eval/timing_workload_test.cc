// align_for_timing: a pull request's edit of its own kernel's definition (a tolerance, a size
// added or dropped) must not switch its regression timing off.
#include "eval/timing_workload.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kblaster {
namespace {

using Sizes = std::vector<std::map<std::string, std::int64_t>>;

KernelSpec twice(const Sizes& sizes) {
  KernelSpec k;
  k.name = "twice";
  k.args = {ArgSpec{.name = "n", .type = DType::i32}};
  k.sizes = k.declared_sizes = sizes;
  return k;
}

TEST(AlignForTiming, ALoosenedToleranceDoesNotStopTheTiming) {
  KernelSpec base = twice({{{"n", 4096}}}), head = base;
  head.tolerance.rtol = 0.5;  // the pull request's own, said beside the verdict
  auto lines = align_for_timing(base, head);
  ASSERT_TRUE(lines.ok()) << lines.error().message;
  EXPECT_TRUE(lines->empty());
  EXPECT_EQ(head.sizes, (Sizes{{{"n", 4096}}}));
}

TEST(AlignForTiming, SizesOnlyOneSideDeclaresAreLeftOutAndSaid) {
  KernelSpec base = twice({{{"n", 65536}}, {{"n", 64}}});
  KernelSpec head = twice({{{"n", 1001}}, {{"n", 65536}}});  // adds 1001, drops 64
  auto lines = align_for_timing(base, head);
  ASSERT_TRUE(lines.ok()) << lines.error().message;
  EXPECT_THAT(*lines,
              ::testing::ElementsAre("n=64 left out of the timing: only base declares it",
                                     "n=1001 left out of the timing: only head declares it"));
  EXPECT_EQ(base.sizes, (Sizes{{{"n", 65536}}}));
  EXPECT_EQ(head.sizes, base.sizes);
  EXPECT_EQ(head.declared_sizes, base.sizes);
}

TEST(AlignForTiming, ASizeOneSideRequiresAwayIsLeftOutToo) {
  KernelSpec base = twice({{{"n", 1001}}, {{"n", 1024}}});
  KernelSpec head = base;
  head.sizes = {{{"n", 1024}}};
  head.left_out = {{{{"n", 1001}}, "requires `n % 4 == 0` (n=1001)"}};
  auto lines = align_for_timing(base, head);
  ASSERT_TRUE(lines.ok()) << lines.error().message;
  EXPECT_THAT(*lines,
              ::testing::ElementsAre("n=1001 left out: `twice` requires `n % 4 == 0` (n=1001)"));
  EXPECT_EQ(base.sizes, (Sizes{{{"n", 1024}}}));
}

TEST(AlignForTiming, NoSizeInCommonOrAnotherArgumentListCannotBeTimed) {
  KernelSpec base = twice({{{"n", 4096}}}), head = twice({{{"n", 8}}});
  auto none = align_for_timing(base, head);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message,
            "base and head declare no size in common, so they cannot be timed on one input");

  KernelSpec other_args = twice({{{"n", 4096}}});
  other_args.args.push_back(ArgSpec{.name = "m", .type = DType::i32});
  KernelSpec base2 = twice({{{"n", 4096}}});
  auto different = align_for_timing(base2, other_args);
  ASSERT_FALSE(different.ok());
  EXPECT_THAT(different.error().message, ::testing::HasSubstr("declare different arguments"));
}

}  // namespace
}  // namespace kblaster
