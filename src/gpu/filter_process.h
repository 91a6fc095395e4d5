// Runs a program once as a filter: text in on its stdin, an answer out of its stdout, with
// its stderr's tail kept for messages. The LLM `command` backend runs this way.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "gpu/sandbox.h"

namespace kblaster {

struct FilterOptions {
  SandboxPolicy sandbox;                      // the environment, rlimits and isolation it runs in
  std::vector<std::string> extra_env;         // "NAME=VALUE" set after scrubbing (a key it needs)
  std::filesystem::path working_dir;          // empty = the caller's
  double timeout_s = 60;                      // wall clock, cut to sandbox.wall_timeout_s
  std::size_t max_output_bytes = 4ULL << 20;  // stdout past this: killed, output_overflow
  std::size_t stderr_tail_bytes = 4096;
};

struct FilterResult {
  int exit_code = -1;            // its exit status, 128 + signal when killed; -1 if unknown
  std::string output;            // its stdout, at most max_output_bytes of it
  std::string stderr_tail;       // the last stderr_tail_bytes of its stderr
  bool timed_out = false;        // the timeout passed and its process group was killed
  bool output_overflow = false;  // it wrote more than max_output_bytes and was killed
  bool input_refused = false;    // it closed its stdin before reading all of `input`
  double seconds = 0;            // wall-clock time from start to exit
};

// Starts argv[0] (no shell; looked up on PATH when it has no '/') in a process group of its
// own, writes `input` to its stdin and closes it, and reads stdout and stderr until it exits.
// Its end in any way (exit, timeout, overflow) is a result; Error::environment only when it
// cannot be started.
Result<FilterResult> run_filter(const std::vector<std::string>& argv, std::string_view input,
                                const FilterOptions& options);

}  // namespace kblaster
