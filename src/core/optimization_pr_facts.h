// What one optimization pull request carries besides the optimize result it comes from:
// the facts its body is written from (report/optimization_pr_body.h), decided where the
// pull request is planned (github/optimization_pr.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace kblaster {

struct OptimizationPrFacts {
  std::vector<std::string> kernels;  // whose sources it changes, as the result names them
  std::string branch;                // its head: "kblaster/optimize/softmax"
  std::string base_branch;           // "main"
  std::string repo_dir;  // the kernel repository's folder in the GitHub repository; "" = root
  // The result's other kernels and why each is not in it (a sweep's PR lists them).
  std::vector<std::pair<std::string, std::string>> left_out;
};

}  // namespace kblaster
