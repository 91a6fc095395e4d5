// Validating a result against its schema in reports/schema/ with a real validator:
// scripts/validate_result.py, over python3-jsonschema.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/provenance.h"
#include "test_paths.h"

namespace kblaster::testing {

struct SchemaCheck {
  int exit_code = -1;  // 0: valid; 1: invalid; kNoValidator: no jsonschema; -1: no python3
  std::string output;  // "<file>: ok (<kind>, schema_version N)" or every error
};

// Writes `result` to a file in `dir` and validates it against the schema its "kind"
// names.
SchemaCheck validate_result(const nlohmann::json& result, const TempDir& dir);

// validate_result.py's exit code when python3-jsonschema is not installed.
inline constexpr int kNoValidator = 3;

// Success when `result` validates as a result of `kind`; else the validator's words. On a
// machine without the validator (the GPU machine) inside a device run, which keeps the
// JSON for checking elsewhere, it says so on stderr and succeeds.
::testing::AssertionResult is_valid_result(const nlohmann::json& result, const std::string& kind,
                                           const TempDir& dir);

// Success when the validator rejects `result` and names each of `errors` (substrings of
// its "path: message" lines); else what it said.
::testing::AssertionResult is_rejected_naming(const nlohmann::json& result,
                                              const std::vector<std::string>& errors,
                                              const TempDir& dir);

// A complete provenance for a result a test builds: kblaster 0.1.0 running `command`
// in /repo on an H200 at 1980 MHz, with `seeds`, at fixed times.
Provenance sample_provenance(const std::string& command, std::vector<std::uint64_t> seeds = {});

}  // namespace kblaster::testing
