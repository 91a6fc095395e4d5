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

// The same with kblaster's stdout sent to `stdout_path` (e.g. /dev/full), so
// CliResult::out is empty.
CliResult run_kblaster_to(const std::vector<std::string>& args, const std::string& stdout_path);

}  // namespace kblaster::testing
