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

// `check` read the other way round, as the pull request that undoes its change would
// measure: every timed row's head/base ratio and CI inverted, its verdicts FASTER.
inline nlohmann::json reversed_check(nlohmann::json check) {
  for (auto& row : check["kernels"]) {
    if (!row["timing"].is_object()) continue;
    auto& t = row["timing"];
    const double ratio = t["ratio"], low = t["ci_low"], high = t["ci_high"];
    t["ratio"] = 1 / ratio;
    t["ci_low"] = 1 / high;
    t["ci_high"] = 1 / low;
    t["verdict"] = row["verdict"] = "FASTER";
  }
  check["summary"] = {{"FASTER", check["kernels"].size()}};
  return check;
}

}  // namespace kblaster::testing
