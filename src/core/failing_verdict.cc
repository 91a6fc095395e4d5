#include "core/failing_verdict.h"

namespace kblaster {

bool is_failing_verdict(std::string_view verdict_name) {
  return verdict_name == "REGRESSION" || verdict_name == "BUILD_FAILED" ||
         verdict_name == "REJECTED" || verdict_name == "UNVERIFIED";
}

bool fails_under_slower(std::string_view verdict_name) {
  return verdict_name == "SLOWER" || verdict_name == "NOT_COMPARED";
}

}  // namespace kblaster
