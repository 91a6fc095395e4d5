// The real H200 results kept in tests/eval/fixtures/h200, for tests that decide or render
// from real data.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "test_paths.h"

namespace kblaster::testing {

// The fixture `name` ("UncoalescedAccessIsSlower.json"), parsed.
inline nlohmann::json h200_fixture(const std::string& name) {
  std::ifstream in(source_dir() / "tests/eval/fixtures/h200" / name);
  return nlohmann::json::parse(in);
}

}  // namespace kblaster::testing
