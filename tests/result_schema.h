// Validating a result against its schema in reports/schema/ with a real validator:
// scripts/validate_result.py, over python3-jsonschema.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "test_paths.h"

namespace kblaster::testing {

struct SchemaCheck {
  int exit_code = -1;  // 0: valid; 1: invalid; -1: the validator could not be run
  std::string output;  // "<file>: ok (<kind>, schema_version N)" or every error
};

// Writes `result` to a file in `dir` and validates it against the schema its "kind"
// names.
SchemaCheck validate_result(const nlohmann::json& result, const TempDir& dir);

}  // namespace kblaster::testing
