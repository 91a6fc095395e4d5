// Runs the built kblaster binary as a user would, keeping stdout and stderr apart.
#pragma once

#include <string>
#include <vector>

namespace kblaster::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs build/kblaster with `args` from the repository root.
CliResult run_kblaster(const std::vector<std::string>& args);

}  // namespace kblaster::testing
