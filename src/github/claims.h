// The speedups a pull request claims, read from its body: what `check --review`
// measures and answers. A PR body is untrusted text, so reading it is bounded and
// never fails: what does not read as a claim is skipped, and duplicates say so.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

// One claim: "kernel: softmax 1.8x" says the PR makes softmax 1.8 times as fast.
struct SpeedupClaim {
  std::string kernel;
  double factor = 0;     // claimed base time / head time; > 0
  std::size_t line = 0;  // 1-based line of the body it was read from
};

// What a body claims, and the lines that looked like claims but were not taken.
struct ClaimList {
  std::vector<SpeedupClaim> claims;  // in body order, one per kernel
  std::vector<std::string> ignored;  // "line 7: softmax is claimed twice; the first claim counts"
};

// At most this many claims are read; the rest are ignored, saying so.
inline constexpr std::size_t kMaxClaims = 64;

// Reads every line of the form "kernel: NAME FACTORx" (case-insensitive "kernel",
// leading list markers, "*" or "`" around NAME, and "×" for "x" allowed; anything
// after the factor, such as "faster", is ignored). NAME is a kernel name: a letter or
// '_', then letters, digits, '_', '-' and '.', at most 64 characters. FACTOR is a positive decimal.
// Only the first 65,536 bytes of `body` are read (GitHub's limit for a PR body).
ClaimList parse_claims(std::string_view body);

}  // namespace kblaster
