// Runs describe_problem.py on one KernelBench problem file: python with torch imports the module
// and runs its forward, so this is done in a sandbox (no network, no new privileges, a filtered
// environment) and within a time limit.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/status.h"
#include "kernelbench/problem.h"

namespace kblaster {

struct DescribeOptions {
  std::string python = "python3";      // looked up in PATH
  std::vector<std::string> extra_env;  // "NAME=VALUE" the interpreter needs (PYTHONPATH)
  double timeout_s = 300;
};

// The problem at `path`. A problem kblaster cannot take, or whose module fails, is an
// Error::config naming the file (the import skips it and says why); Error::environment when the
// interpreter cannot be started or gives no answer.
Result<KernelBenchProblem> describe_problem(const std::filesystem::path& path,
                                            const DescribeOptions& options);

}  // namespace kblaster
