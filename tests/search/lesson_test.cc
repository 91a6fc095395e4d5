#include "search/lesson.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace kblaster {
namespace {

Prediction prior(double speedup) {
  Prediction p;
  p.technique = "vectorized_access";
  p.expected_log_speedup = std::log(speedup);
  p.source = Prediction::Source::prior;
  return p;
}

// Stats with the given log speedups measured, out of `attempts`.
TechniqueStats stats(std::int64_t attempts, std::int64_t compile_failures,
                     std::int64_t verify_failures, const std::vector<double>& logs) {
  TechniqueStats s;
  s.attempts = attempts;
  s.compile_failures = compile_failures;
  s.verify_failures = verify_failures;
  s.measured = static_cast<std::int64_t>(logs.size());
  for (double x : logs) {
    s.sum_log_speedup += x;
    s.sum_sq_log_speedup += x * x;
  }
  return s;
}

// Mean log speedup log(1.029) (+2.9%) and sample sd 0.011 (1.1%).
const double kMean = std::log(1.029);
const std::vector<double> kThree = {kMean - 0.011, kMean, kMean + 0.011};

TEST(StatisticalLesson, SummarisesAMeasuredStep) {
  const Lesson l =
      statistical_lesson("memory.dram_saturated", "vectorized_access", prior(1.105),
                         StepOutcome::faster, std::log(1.032), stats(4, 1, 0, kThree), 1700000000);
  EXPECT_EQ(l.text,
            "memory.dram_saturated / vectorized_access: predicted +10.5% (prior, 0 measured), "
            "observed +3.2% (faster); overestimated by 7.3 pts. Now 4 attempts, 3 measured, "
            "mean +2.9%, sd 1.1%.");
  EXPECT_EQ(l.id, "");
  EXPECT_EQ(l.state, "memory.dram_saturated");
  EXPECT_EQ(l.technique, "vectorized_access");
  EXPECT_EQ(l.created_at, 1700000000);
}

TEST(StatisticalLesson, SaysWhenThePredictionWasTooLowOrRight) {
  Prediction p = prior(1.01);
  p.source = Prediction::Source::exact;
  p.evidence = 5;
  const Lesson under = statistical_lesson("compute.fp32_bound", "fast_math", p, StepOutcome::faster,
                                          std::log(1.05), stats(6, 0, 0, {std::log(1.05)}), 0);
  EXPECT_EQ(under.text,
            "compute.fp32_bound / fast_math: predicted +1.0% (exact, 5 measured), observed +5.0% "
            "(faster); underestimated by 4.0 pts. Now 6 attempts, 1 measured, mean +5.0%.");
  const Lesson right = statistical_lesson("s", "t", prior(0.97), StepOutcome::slower,
                                          std::log(0.97), stats(1, 0, 0, {std::log(0.97)}), 0);
  EXPECT_EQ(right.text,
            "s / t: predicted -3.0% (prior, 0 measured), observed -3.0% (slower); as predicted. "
            "Now 1 attempt, 1 measured, mean -3.0%.");
}

TEST(StatisticalLesson, NamesTheFailureAndItsRate) {
  const Lesson l = statistical_lesson(
      "memory.dram_saturated", "vectorized_access", prior(1.105), StepOutcome::compile_failure,
      /*ignored*/ 99.0, stats(4, 2, 0, {kMean - 0.0078, kMean + 0.0078}), 5);
  EXPECT_EQ(l.text,
            "memory.dram_saturated / vectorized_access: predicted +10.5% (prior, 0 measured), "
            "observed: compile_failure; 2 of 4 attempts failed to compile. Now 4 attempts, "
            "2 measured, mean +2.9%, sd 1.1%.");
  Prediction none;
  const Lesson v =
      statistical_lesson("s", "t", none, StepOutcome::verify_failure, 0.0, stats(1, 0, 1, {}), 5);
  EXPECT_EQ(v.text,
            "s / t: predicted +0.0% (none, 0 measured), observed: verify_failure; 1 of 1 attempt "
            "failed verification. Now 1 attempt, 0 measured.");
}

}  // namespace
}  // namespace kblaster
