// "Did you mean …?" suggestions for misspelt names in configs and on the command line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

// The candidate closest to `word` by edit distance, if it is close enough to be
// a plausible typo (distance at most a third of the word's length, at least 1).
std::optional<std::string> closest_name(std::string_view word,
                                        const std::vector<std::string>& candidates);

// "; did you mean `x`?" or "" when nothing is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace kblaster
