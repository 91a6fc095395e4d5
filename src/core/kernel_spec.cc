#include "core/kernel_spec.h"

namespace kblaster {

const char* role_name(ArgRole r) {
  switch (r) {
    case ArgRole::in:
      return "in";
    case ArgRole::out:
      return "out";
    case ArgRole::inout:
      return "inout";
  }
  return "?";
}

const char* reference_kind_name(ReferenceSpec::Kind k) {
  switch (k) {
    case ReferenceSpec::Kind::cpu:
      return "cpu";
    case ReferenceSpec::Kind::gpu:
      return "gpu";
    case ReferenceSpec::Kind::base_revision:
      return "base_revision";
    case ReferenceSpec::Kind::python:
      return "python";
  }
  return "?";
}

const char* fail_on_name(CheckConfig::FailOn f) {
  switch (f) {
    case CheckConfig::FailOn::slower:
      return "slower";
    case CheckConfig::FailOn::error:
      return "error";
    case CheckConfig::FailOn::never:
      return "never";
  }
  return "?";
}

}  // namespace kblaster
