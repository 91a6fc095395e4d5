// Axis scaling on synthetic numbers: nothing, one value, equal values, zero, huge
// ratios, and values that are not finite.
#include "report/axis.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace kblaster {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Every axis: lo < hi, ticks ascending inside [lo, hi], at least two of them.
void expect_sound(const Axis& a) {
  EXPECT_LT(a.lo, a.hi);
  EXPECT_TRUE(std::isfinite(a.lo) && std::isfinite(a.hi));
  ASSERT_GE(a.ticks.size(), 2u);
  for (std::size_t i = 0; i < a.ticks.size(); ++i) {
    const double slack = (a.hi - a.lo) * 1e-9;
    EXPECT_GE(a.ticks[i], a.lo - slack);
    EXPECT_LE(a.ticks[i], a.hi + slack);
    if (i) {
      EXPECT_LT(a.ticks[i - 1], a.ticks[i]);
    }
  }
  if (a.scale == Scale::log) {
    EXPECT_GT(a.lo, 0.0);
  }
}

void expect_covers(const Axis& a, const std::vector<double>& values) {
  for (double v : values) {
    EXPECT_LE(a.lo, v) << v;
    EXPECT_GE(a.hi, v) << v;
  }
}

TEST(Axis, NothingToPlaceGivesTheUnitRange) {
  const Axis linear = make_axis({}, Scale::linear);
  expect_sound(linear);
  EXPECT_EQ(linear.lo, 0.0);
  EXPECT_EQ(linear.hi, 1.0);
  const Axis log = make_axis({}, Scale::log);
  expect_sound(log);
  EXPECT_EQ(log.lo, 1.0);
}

TEST(Axis, OneValueGetsRoomAroundIt) {
  for (Scale s : {Scale::linear, Scale::log}) {
    const Axis a = make_axis(std::vector<double>{3.7}, s);
    expect_sound(a);
    expect_covers(a, {3.7});
    EXPECT_GT(a.position(3.7), 0.0);
    EXPECT_LT(a.position(3.7), 1.0);
  }
}

TEST(Axis, EqualValuesAndZeroStillSpanARange) {
  expect_sound(make_axis(std::vector<double>{0.0, 0.0}, Scale::linear));
  const Axis a = make_axis(std::vector<double>{2.5, 2.5, 2.5}, Scale::linear);
  expect_sound(a);
  expect_covers(a, {2.5});
  const Axis negative = make_axis(std::vector<double>{-4.0, -4.0}, Scale::linear);
  expect_sound(negative);
  expect_covers(negative, {-4.0});
}

TEST(Axis, LinearTicksAreRound) {
  const Axis a = make_axis(std::vector<double>{0.0, 12.37}, Scale::linear);
  expect_sound(a);
  expect_covers(a, {0.0, 12.37});
  EXPECT_EQ(a.lo, 0.0);
  for (double t : a.ticks) EXPECT_DOUBLE_EQ(t, std::round(t / 5) * 5) << t;
  EXPECT_LE(a.ticks.size(), 7u);
}

TEST(Axis, LogTicksFollowOneTwoFiveOrDecades) {
  const Axis near_one = make_axis(std::vector<double>{0.9975, 1.0125}, Scale::log);
  expect_sound(near_one);
  EXPECT_EQ(near_one.lo, 0.5);
  EXPECT_EQ(near_one.hi, 2.0);
  const Axis wide = make_axis(std::vector<double>{0.0808, 1.0}, Scale::log);
  EXPECT_EQ(wide.ticks, (std::vector<double>{0.05, 0.1, 0.2, 0.5, 1.0}));
}

TEST(Axis, HugeRatiosTickEveryKthDecadeWithinTheLimit) {
  const std::vector<double> values = {1e-250, 1e250};
  const Axis a = make_axis(values, Scale::log, 6);
  expect_sound(a);
  expect_covers(a, values);
  EXPECT_LE(a.ticks.size(), 7u);
  EXPECT_GT(a.position(1.0), 0.4);
  EXPECT_LT(a.position(1.0), 0.6);
  const Axis linear = make_axis(values, Scale::linear);
  expect_sound(linear);
  EXPECT_EQ(scale_for(values), Scale::log);
  EXPECT_EQ(scale_for(std::vector<double>{1.0, 50.0}), Scale::linear);
}

TEST(Axis, ValuesItCannotPlaceAreIgnoredAndPlaceAtNaN) {
  const Axis a = make_axis(std::vector<double>{kNaN, 2.0, kInf, -kInf, 4.0, 1e308}, Scale::linear);
  expect_sound(a);
  EXPECT_LT(a.hi, 10.0);
  EXPECT_TRUE(std::isnan(a.position(kNaN)));
  EXPECT_TRUE(std::isnan(a.position(kInf)));
  const Axis log = make_axis(std::vector<double>{-1.0, 0.0, 5.0}, Scale::log);
  expect_sound(log);
  expect_covers(log, {5.0});
  EXPECT_TRUE(std::isnan(log.position(0.0)));
  EXPECT_TRUE(std::isnan(log.position(-1.0)));
  EXPECT_EQ(a.position(-1000.0), 0.0) << "clamped";
  EXPECT_EQ(a.position(1000.0), 1.0) << "clamped";
}

}  // namespace
}  // namespace kblaster
