// The limits on what a config or a file named on the command line may hold, so that
// no input can exhaust a runner's stack, memory or time (issue 16). Each number is
// written once, here; messages are formatted from it and docs/config.md lists it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace kblaster {

// Characters in a launcher, reference function, macro or argument name.
inline constexpr std::size_t kMaxNameLength = 256;
// Characters in a kernel name, which becomes a file and directory name.
inline constexpr std::size_t kMaxKernelNameLength = 64;
// Characters in a `shape` or `flops` expression; it also bounds the depth of the
// expression tree that evaluation walks.
inline constexpr std::size_t kMaxExpressionLength = 1024;
// Dimensions of a buffer declared as a list (`shape = ["B", "C", "H", "W"]`), as PyTorch's own
// tensors have at most a few more.
inline constexpr std::size_t kMaxDimensions = 8;
// Parentheses and unary minuses nested inside one another in an expression.
inline constexpr std::size_t kMaxExpressionDepth = 64;
// Characters in one `[project].kernel_specs` glob.
inline constexpr std::size_t kMaxGlobLength = 1024;
// Parts of one dotted TOML key (`a.b.c = 1`, `[a.b.c]`): toml++ recurses once per part, and no
// real config comes near this many.
inline constexpr std::size_t kMaxTomlKeyParts = 64;

inline constexpr std::uintmax_t kMiB = 1024 * 1024;
// Bytes in an ncu CSV (classify --ncu-csv, --before-csv).
inline constexpr std::uintmax_t kMaxCsvBytes = 64 * kMiB;
// Bytes in a kernel or reference source file named on the command line.
inline constexpr std::uintmax_t kMaxSourceBytes = 16 * kMiB;
// Bytes in a GitHub event payload ($GITHUB_EVENT_PATH); GitHub caps webhook payloads at 25 MB.
inline constexpr std::uintmax_t kMaxEventBytes = 25 * kMiB;
// Bytes in a JSON file kblaster reads: a KB export (kb import --from), the seed catalogue.
inline constexpr std::uintmax_t kMaxJsonBytes = 256 * kMiB;
// Levels of arrays and objects nested in a saved result that `kblaster report` reads;
// kblaster's own results nest fewer than 10.
inline constexpr std::size_t kMaxResultDepth = 64;

// `text` in backquotes, whole when it has at most `max_chars`, else its first characters
// and "...": for quoting untrusted input in a message without copying all of it.
std::string quote_input(std::string_view text, std::size_t max_chars = 64);

// "`abc...` is 50000 characters long; <what> may have at most <limit>".
std::string too_long(std::string_view text, std::size_t limit, std::string_view what);

}  // namespace kblaster
