#include "github/claims.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kblaster {
namespace {

using ::testing::ElementsAre;

TEST(Claims, ReadsEachClaimWithItsLine) {
  const auto list = parse_claims(
      "This PR speeds up two kernels.\n"
      "\n"
      "- kernel: softmax 1.8x faster\n"
      "* Kernel: `layernorm_fwd` 2×\n"
      "| kernel: gelu.v2: 1.25x |\n");
  ASSERT_EQ(list.claims.size(), 3u);
  EXPECT_EQ(list.claims[0].kernel, "softmax");
  EXPECT_DOUBLE_EQ(list.claims[0].factor, 1.8);
  EXPECT_EQ(list.claims[0].line, 3u);
  EXPECT_EQ(list.claims[1].kernel, "layernorm_fwd");
  EXPECT_DOUBLE_EQ(list.claims[1].factor, 2.0);
  EXPECT_EQ(list.claims[2].kernel, "gelu.v2");
  EXPECT_DOUBLE_EQ(list.claims[2].factor, 1.25);
  EXPECT_TRUE(list.ignored.empty());
}

TEST(Claims, LinesThatOnlyLookLikeClaimsAreIgnoredSayingWhy) {
  const auto list = parse_claims(
      "kernel: softmax 1.8x\n"
      "kernel: softmax 3x\n"
      "kernel: 2x\n"
      "kernel: relu fast\n"
      "kernel: relu -2x\n"
      "kernel: relu 0x\n"
      "the kernel: relu 9x is mentioned mid-sentence\n");
  ASSERT_EQ(list.claims.size(), 1u);
  EXPECT_DOUBLE_EQ(list.claims[0].factor, 1.8) << "the first claim counts";
  EXPECT_THAT(list.ignored, ElementsAre("line 2: softmax is claimed twice; the first claim counts",
                                        "line 3: no kernel name after \"kernel:\"",
                                        "line 4: no speedup such as \"1.8x\" after relu",
                                        "line 5: no speedup such as \"1.8x\" after relu",
                                        "line 6: no speedup such as \"1.8x\" after relu"));
}

TEST(Claims, AHostileBodyIsReadWithinItsBounds) {
  std::string body;
  for (int i = 0; i < 100; ++i) body += "kernel: k" + std::to_string(i) + " 2x\n";
  const auto list = parse_claims(body);
  EXPECT_EQ(list.claims.size(), kMaxClaims);
  ASSERT_EQ(list.ignored.size(), 1u);
  EXPECT_EQ(list.ignored[0], "line 65: more than 64 claims; the rest are not measured");

  const std::string huge = std::string(70000, 'a') + "\nkernel: late 2x\n";
  EXPECT_TRUE(parse_claims(huge).claims.empty()) << "only GitHub's 65,536 bytes are read";
  EXPECT_TRUE(parse_claims("kernel: " + std::string(65, 'n') + " 2x").claims.empty());
  const auto out_of_range = parse_claims("kernel: k 9" + std::string(400, '9') + "x");
  EXPECT_TRUE(out_of_range.claims.empty());
  EXPECT_EQ(out_of_range.ignored.size(), 1u);
}

}  // namespace
}  // namespace kblaster
