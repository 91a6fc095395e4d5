// The outcome of checking one candidate: passed, or the first named reason it
// failed with the numbers a report needs (docs/harness-protocol.md, "verdict").
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace kblaster::harness {

struct Verdict {
  bool passed = true;
  std::string reason = "passed";
  std::string message;
  nlohmann::json detail = nlohmann::json::object();

  static Verdict failure(std::string reason, std::string message, nlohmann::json detail = {}) {
    return {false, std::move(reason), std::move(message),
            detail.is_null() ? nlohmann::json::object() : std::move(detail)};
  }
  nlohmann::json to_json() const {
    return {{"passed", passed}, {"reason", reason}, {"message", message}, {"detail", detail}};
  }
};

}  // namespace kblaster::harness
