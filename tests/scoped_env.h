// Environment variables set for one test and restored after it.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kblaster::testing {

// Sets environment variables for one test and restores them after. Copy
// deleted: two owners would restore twice.
class ScopedEnv {
 public:
  explicit ScopedEnv(std::vector<std::pair<std::string, std::string>> vars) {
    for (auto& [name, value] : vars) {
      const char* old = ::getenv(name.c_str());
      saved_.push_back({name, old ? std::optional<std::string>(old) : std::nullopt});
      EXPECT_EQ(::setenv(name.c_str(), value.c_str(), 1), 0);
    }
  }
  ~ScopedEnv() {
    for (const auto& [name, old] : saved_)
      static_cast<void>(old ? ::setenv(name.c_str(), old->c_str(), 1) : ::unsetenv(name.c_str()));
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

}  // namespace kblaster::testing
