// Runs one program to completion and captures what it printed: the one place
// kblaster starts child processes (nvcc, the harness, ncu).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace kblaster {

struct ProcessOptions {
  std::filesystem::path working_dir;                    // empty = the caller's
  std::optional<double> timeout_seconds;                // wall clock; nullopt = wait forever
  std::optional<std::vector<std::string>> environment;  // "NAME=VALUE" entries; nullopt = inherit
};

struct ProcessResult {
  int exit_code = 0;       // the exit status, or 128 + the signal that ended it
  std::string output;      // stdout and stderr, interleaved as written
  bool timed_out = false;  // the timeout expired and the process group was killed
  double seconds = 0.0;    // wall-clock time from spawn to exit
};

// Runs argv[0] (looked up on the caller's PATH when it has no '/') with
// argv[1..], no shell, stdin from /dev/null, in a process group of its own.
// On timeout the whole group gets SIGKILL. A program that cannot be started is
// Error::environment naming it; a non-zero exit is a result, not an error.
Result<ProcessResult> run_process(const std::vector<std::string>& argv,
                                  const ProcessOptions& options = {});

}  // namespace kblaster
