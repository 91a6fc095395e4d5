#include "core/failing_verdict.h"

namespace kblaster {

bool is_failing_verdict(std::string_view verdict_name) {
  return verdict_name == "REGRESSION" || verdict_name == "BUILD_FAILED" ||
         verdict_name == "REJECTED" || verdict_name == "UNVERIFIED";
}

}  // namespace kblaster
