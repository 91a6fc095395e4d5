#include "core/check_policy.h"

#include <sstream>

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

std::string kept(const std::string& field, const std::string& head, const std::string& base) {
  return "[check] " + field + ": head's " + head + " is looser than base's " + base +
         "; base's holds";
}

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

CheckPolicy check_policy(const CheckConfig& head, const CheckConfig* base) {
  CheckPolicy policy{head, {}};
  if (base == nullptr) return policy;
  if (leniency(head.fail_on) > leniency(base->fail_on)) {
    policy.config.fail_on = base->fail_on;
    policy.kept_from_base.push_back(kept("fail_on",
                                         std::string("\"") + fail_on_name(head.fail_on) + "\"",
                                         std::string("\"") + fail_on_name(base->fail_on) + "\""));
  }
  if (head.min_effect > base->min_effect) {
    policy.config.min_effect = base->min_effect;
    policy.kept_from_base.push_back(
        kept("min_effect", number(head.min_effect), number(base->min_effect)));
  }
  return policy;
}

}  // namespace kblaster
