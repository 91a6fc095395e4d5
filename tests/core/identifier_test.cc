#include "core/identifier.h"

#include <gtest/gtest.h>

#include "core/arch_name.h"
#include "core/input_limits.h"

namespace kblaster {
namespace {

TEST(Identifier, ScannersFollowTheirRules) {
  EXPECT_TRUE(is_identifier("_x9"));
  EXPECT_FALSE(is_identifier("9x"));
  EXPECT_FALSE(is_identifier(""));
  EXPECT_FALSE(is_identifier("a-b"));
  EXPECT_TRUE(is_qualified_identifier("launch"));
  EXPECT_TRUE(is_qualified_identifier("ns::inner::launch"));
  EXPECT_TRUE(is_qualified_identifier("::launch"));
  for (const char* bad : {"", "::", "ns::", "ns:::f", "ns:f", "::::f", "a::9b", "a b"})
    EXPECT_FALSE(is_qualified_identifier(bad)) << bad;
  EXPECT_TRUE(is_kernel_name("softmax_v2.fast-path"));
  EXPECT_TRUE(is_kernel_name("2d_conv"));
}

// A kernel name becomes a path component and an argument, so these are refused.
TEST(Identifier, HostileKernelNamesAreRefusedNamingTheRule) {
  for (const char* bad : {"", ".", "..", "...", "-rf", "--help", "a/b", "../x", "/etc", ".hidden",
                          "a b", "a\nb", "a\\b", "a:b", "k$(id)"}) {
    EXPECT_FALSE(is_kernel_name(bad)) << bad;
    auto why = name_problem(bad, NameKind::kernel);
    ASSERT_TRUE(why.has_value()) << bad;
    const std::string name = bad;
    EXPECT_EQ(*why, "`" + name +
                        "` may only use letters, digits, '_', '.' and '-', and must start with a "
                        "letter, a digit or '_'");
  }
}

TEST(Identifier, NamesOverTheirLimitAreRefusedNamingIt) {
  EXPECT_FALSE(name_problem(std::string(kMaxKernelNameLength, 'k'), NameKind::kernel));
  EXPECT_EQ(name_problem(std::string(kMaxKernelNameLength + 1, 'k'), NameKind::kernel),
            "`" + std::string(61, 'k') + "...` is " + std::to_string(kMaxKernelNameLength + 1) +
                " characters long; a kernel name may have at most " +
                std::to_string(kMaxKernelNameLength));
  for (NameKind kind : {NameKind::argument, NameKind::macro, NameKind::function}) {
    EXPECT_FALSE(name_problem(std::string(kMaxNameLength, 'x'), kind));
    auto why = name_problem(std::string(kMaxNameLength + 1, 'x'), kind);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find(" may have at most " + std::to_string(kMaxNameLength)), std::string::npos)
        << *why;
  }
}

// std::regex_match recursed once per character: 50,000 characters overflowed the stack.
TEST(Identifier, FiftyThousandCharacterNamesAreScannedWithoutRecursion) {
  const std::string word(50'000, 'a');
  EXPECT_TRUE(is_identifier(word));
  EXPECT_TRUE(is_kernel_name(word));
  std::string qualified = "a";
  while (qualified.size() < 50'000) qualified += "::a";
  EXPECT_TRUE(is_qualified_identifier(qualified));
  EXPECT_FALSE(is_qualified_identifier(qualified + ":"));
  EXPECT_FALSE(is_arch_name("sm_" + std::string(50'000, '9')));
}

TEST(ArchName, AcceptsTwoOrThreeDigitsAndAnOptionalSuffix) {
  for (const char* good : {"sm_90", "sm_90a", "sm_100", "sm_100f", "sm_120a"})
    EXPECT_TRUE(is_arch_name(good)) << good;
  for (const char* bad : {"sm_9", "sm_1000", "sm_90b", "sm_90af", "SM_90", "sm90", "sm_", "hopper"})
    EXPECT_FALSE(is_arch_name(bad)) << bad;
}

}  // namespace
}  // namespace kblaster
