// The context that stands for a launch-bound kernel: the median of the fast mode, so neither
// the slow mode nor a low outlier of the fast one decides the time.
#include "stats/context_choice.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

TEST(TypicalFastContext, IsTheMedianOfTheContextsWithin2PercentOfTheFastest) {
  // Real hot medians (us) of one H200 process: fast mode ~2.14-2.18, slow ~2.26-2.29.
  const std::vector<double> medians = {2.147, 2.276, 2.147, 2.260, 2.167, 2.149, 2.144, 2.143};
  // Fast: 2.143 (7), 2.144 (6), 2.147 (0), 2.147 (2), 2.149 (5), 2.167 (4); lower median 2.147.
  EXPECT_EQ(typical_fast_context(medians), 0u);
}

TEST(TypicalFastContext, ALowOutlierDoesNotDecide) {
  const std::vector<double> medians = {2.150, 2.128, 2.151, 2.290, 2.152, 2.149};
  EXPECT_DOUBLE_EQ(medians[typical_fast_context(medians)], 2.150);
}

TEST(TypicalFastContext, OneContextOrEmptyOnesAreHandled) {
  EXPECT_EQ(typical_fast_context({4.2}), 0u);
  EXPECT_EQ(typical_fast_context({0.0, 4.2, 0.0}), 1u)
      << "a context with no samples is passed over";
  EXPECT_EQ(typical_fast_context({0.0, 0.0}), 0u);
}

}  // namespace
}  // namespace kblaster
