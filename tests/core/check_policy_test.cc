// check_policy: a pull request's kblaster.toml may tighten the check it is judged by, not
// loosen it.
#include "core/check_policy.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

using FailOn = CheckConfig::FailOn;

TEST(CheckPolicy, BaseHoldsWhereHeadLoosensIt) {
  const CheckConfig base{FailOn::slower, 0.015};
  const CheckPolicy p = check_policy({FailOn::never, 0.5}, &base);
  EXPECT_EQ(p.config.fail_on, FailOn::slower);
  EXPECT_DOUBLE_EQ(p.config.min_effect, 0.015);
  ASSERT_EQ(p.kept_from_base.size(), 2u);
  EXPECT_EQ(p.kept_from_base[0],
            "[check] fail_on: head's \"never\" is looser than base's \"slower\"; base's holds");
  EXPECT_EQ(p.kept_from_base[1],
            "[check] min_effect: head's 0.5 is looser than base's 0.015; base's holds");
}

TEST(CheckPolicy, FailOnErrorIsLooserThanSlowerAndStricterThanNever) {
  const CheckConfig slower{FailOn::slower, 0.015}, never{FailOn::never, 0.015};
  EXPECT_EQ(check_policy({FailOn::error, 0.015}, &slower).config.fail_on, FailOn::slower);
  const CheckPolicy tighter = check_policy({FailOn::error, 0.015}, &never);
  EXPECT_EQ(tighter.config.fail_on, FailOn::error);
  EXPECT_TRUE(tighter.kept_from_base.empty());
}

TEST(CheckPolicy, HeadsStricterPolicyTakesEffectAtOnce) {
  const CheckConfig base{FailOn::never, 0.05};
  const CheckPolicy p = check_policy({FailOn::slower, 0.01}, &base);
  EXPECT_EQ(p.config.fail_on, FailOn::slower);
  EXPECT_DOUBLE_EQ(p.config.min_effect, 0.01);
  EXPECT_TRUE(p.kept_from_base.empty());
}

TEST(CheckPolicy, WithoutABaseConfigTheDefaultsAreTheFloor) {
  const CheckPolicy loose = check_policy({FailOn::never, 0.5}, nullptr);
  EXPECT_EQ(loose.config.fail_on, CheckConfig{}.fail_on);
  EXPECT_DOUBLE_EQ(loose.config.min_effect, kRegressionMinEffect);
  ASSERT_EQ(loose.kept_from_base.size(), 2u);
  EXPECT_EQ(loose.kept_from_base[1],
            "[check] min_effect: head's 0.5 is looser than the default 0.015 (base has no "
            "kblaster.toml that loaded); the default holds");
  const CheckPolicy strict = check_policy({FailOn::slower, 0.01}, nullptr);
  EXPECT_DOUBLE_EQ(strict.config.min_effect, 0.01);
  EXPECT_TRUE(strict.kept_from_base.empty());
}

TEST(CheckPolicy, ValuesThatDifferPrintApart) {
  const CheckConfig base{FailOn::slower, 0.015};
  const CheckPolicy p = check_policy({FailOn::slower, 0.0150001}, &base);
  ASSERT_EQ(p.kept_from_base.size(), 1u);
  EXPECT_EQ(p.kept_from_base[0],
            "[check] min_effect: head's 0.0150001 is looser than base's 0.015; base's holds");
}

}  // namespace
}  // namespace kblaster
