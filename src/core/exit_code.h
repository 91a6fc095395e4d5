// The process exit codes of every kblaster command (DESIGN.md, "The CLI contract").
#pragma once

namespace kblaster {

enum class ExitCode : int {
  ok = 0,                   // done; nothing regressed
  found_problem = 1,        // done, and found a regression, a wrong result or a rejected candidate
  bad_config = 2,           // bad usage or bad config
  missing_environment = 3,  // no CUDA device, no nvcc, no ncu, no token
  internal_error = 4,       // a bug: the message asks for a report
  remote_failure = 5,       // a remote service (GitHub, an LLM API) failed; the result was kept
                            // locally
};

inline int to_int(ExitCode code) { return static_cast<int>(code); }

}  // namespace kblaster
