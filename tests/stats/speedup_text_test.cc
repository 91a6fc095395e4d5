#include "stats/speedup_text.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kblaster {
namespace {

TEST(SpeedupText, APercentGainHasOneDecimalAndASign) {
  EXPECT_EQ(percent_gain(std::log(1.105)), "+10.5%");
  EXPECT_EQ(percent_gain(std::log(0.97)), "-3.0%");
  EXPECT_EQ(percent_gain(0.0), "+0.0%");
}

TEST(SpeedupText, AGainThatRoundsToZeroHasNoMinusSign) {
  EXPECT_EQ(percent_gain(std::log(1.0 - 0.0004)), "+0.0%");
  EXPECT_EQ(percent_gain(std::log(1.0 - 0.0006)), "-0.1%");
}

TEST(SpeedupText, ASpeedupReadsAsAFactorWithThreeDecimals) {
  EXPECT_EQ(speedup_times(std::log(1.2034)), "1.203x");
  EXPECT_EQ(speedup_times(0.0), "1.000x");
}

}  // namespace
}  // namespace kblaster
