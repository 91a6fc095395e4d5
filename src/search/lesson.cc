#include "search/lesson.h"

#include <cmath>
#include <cstdio>
#include <string>

#include "stats/speedup_text.h"

namespace kblaster {

namespace {

// One decimal; values that round to zero print without a minus sign.
double tidy(double value) { return std::fabs(value) < 0.05 ? 0.0 : value; }

std::string gap(double predicted_log, double observed_log) {
  const double points = tidy((std::expm1(predicted_log) - std::expm1(observed_log)) * 100.0);
  if (points == 0.0) return "as predicted";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s by %.1f pts", points > 0 ? "overestimated" : "underestimated",
                std::fabs(points));
  return buf;
}

// "1 attempt", "4 attempts".
std::string attempts(std::int64_t n) {
  return std::to_string(n) + (n == 1 ? " attempt" : " attempts");
}

std::string failures(StepOutcome outcome, const TechniqueStats& after) {
  const bool compile = outcome == StepOutcome::compile_failure;
  return std::to_string(compile ? after.compile_failures : after.verify_failures) + " of " +
         attempts(after.attempts) + " failed " + (compile ? "to compile" : "verification");
}

std::string totals(const TechniqueStats& s) {
  std::string text =
      "Now " + attempts(s.attempts) + ", " + std::to_string(s.measured) + " measured";
  if (s.measured >= 1) text += ", mean " + percent_gain(s.mean_log_speedup());
  if (s.measured >= 2) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ", sd %.1f%%", std::sqrt(s.variance_log_speedup()) * 100.0);
    text += buf;
  }
  return text + ".";
}

}  // namespace

Lesson statistical_lesson(std::string_view state, std::string_view technique,
                          const Prediction& predicted, StepOutcome outcome,
                          double observed_log_speedup, const TechniqueStats& after,
                          std::int64_t now) {
  std::string text = std::string(state) + " / " + std::string(technique) + ": predicted " +
                     percent_gain(predicted.expected_log_speedup) + " (" +
                     prediction_source_name(predicted.source) + ", " +
                     std::to_string(predicted.evidence) + " measured), observed";
  if (is_measured(outcome)) {
    text.append(" ").append(percent_gain(observed_log_speedup)).append(" (");
    text.append(outcome_name(outcome)).append("); ");
    text.append(gap(predicted.expected_log_speedup, observed_log_speedup));
  } else {
    text += ": " + std::string(outcome_name(outcome)) + "; " + failures(outcome, after);
  }
  text += ". " + totals(after);
  return Lesson{"", std::string(state), std::string(technique), std::move(text), now};
}

}  // namespace kblaster
