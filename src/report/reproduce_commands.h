// The commands that repeat an optimization pull request's measurement on a user's own
// machine: the search as it ran, then the pull request's source against the base.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/optimization_pr_facts.h"

namespace kblaster {

// `word` as one shell word: as it is when it holds only letters, digits and _ . / = : , + -,
// else in single quotes.
std::string shell_word(std::string_view word);

// A fenced Markdown code block of `text`, its fence longer than any run of backticks in it,
// so nothing in `text` can close it.
std::string code_block(std::string_view text, std::string_view language = "sh");

// The commands, as a fenced sh block: `kblaster optimize` of the kernels in `facts` with the
// result's search seed, budget and first verification seed; then, per kernel, the pull
// request's source fetched beside the kernel's own and `kblaster compare` of the two.
std::string reproduce_commands(const nlohmann::json& result, const OptimizationPrFacts& facts);

}  // namespace kblaster
