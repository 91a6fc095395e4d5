// What every fuzz target asserts beyond "no crash": a parser that refuses its input
// says it is the user's mistake (Error::config or usage, exit 2), never an io or
// internal error (exit 4, kept for kblaster's own bugs; DESIGN.md).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/status.h"

namespace kblaster {

// Prints `what` and aborts, so that libFuzzer saves the input as a crash.
[[noreturn]] inline void fuzz_bug(const std::string& what) {
  std::fprintf(stderr, "fuzz: %s\n", what.c_str());
  std::abort();
}

// Aborts (fuzz_bug) unless `error` blames the input: a usage or config error.
inline void expect_input_error(const Error& error) {
  if (error.kind != ErrorKind::usage && error.kind != ErrorKind::config)
    fuzz_bug("bad input ended in an error of kind io or internal (exit 4): " + error.describe());
}

}  // namespace kblaster
