// The seed source: a drawn seed is never 0, and a run's timed inputs follow its --seed.
#include "eval/seed_source.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(SeedSource, ADrawnSeedIsNeverZero) {
  for (int i = 0; i < 100; ++i) EXPECT_NE(draw_seed(), 0u);
}

TEST(SeedSource, TimedInputsFollowTheRunsSeedClearOfItsVerificationSeeds) {
  EXPECT_EQ(timing_seed(7, 0), 1007u);
  EXPECT_EQ(timing_seed(7, 2), 1009u);
  EXPECT_EQ(timing_seed(0, 3), 0u) << "no --seed: each measurement draws its own";
}

}  // namespace
}  // namespace kblaster
