#include "core/check_policy.h"

#include <cstdio>

namespace kblaster {
namespace {

// How many verdicts fail_on lets pass: slower fails on the most, never on none.
int leniency(CheckConfig::FailOn f) {
  switch (f) {
    case CheckConfig::FailOn::slower:
      return 0;
    case CheckConfig::FailOn::error:
      return 1;
    case CheckConfig::FailOn::never:
      return 2;
  }
  return 2;
}

// Ten significant digits: enough that two values the check told apart never print alike.
std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

std::string quoted(CheckConfig::FailOn f) { return std::string("\"") + fail_on_name(f) + "\""; }

}  // namespace

CheckPolicy check_policy(const CheckConfig& head, const CheckConfig* base) {
  const CheckConfig defaults;
  const CheckConfig& floor = base ? *base : defaults;
  const std::string whose = base ? "base's" : "the default";
  const std::string holds =
      base ? "; base's holds" : " (base has no kblaster.toml that loaded); the default holds";
  auto kept = [&](const std::string& field, const std::string& was, const std::string& held) {
    return "[check] " + field + ": head's " + was + " is looser than " + whose + " " + held + holds;
  };
  CheckPolicy policy{head, {}};
  if (leniency(head.fail_on) > leniency(floor.fail_on)) {
    policy.config.fail_on = floor.fail_on;
    policy.kept_from_base.push_back(kept("fail_on", quoted(head.fail_on), quoted(floor.fail_on)));
  }
  if (head.min_effect > floor.min_effect) {
    policy.config.min_effect = floor.min_effect;
    policy.kept_from_base.push_back(
        kept("min_effect", number(head.min_effect), number(floor.min_effect)));
  }
  return policy;
}

}  // namespace kblaster
