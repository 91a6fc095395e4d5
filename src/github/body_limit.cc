#include "github/body_limit.h"

namespace kblaster {
namespace {

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

std::size_t code_points(std::string_view text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += is_continuation(c) ? 0 : 1;
  return n;
}

// The byte offset after the first `count` code points of `text`.
std::size_t offset_of(std::string_view text, std::size_t count) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (is_continuation(static_cast<unsigned char>(text[i]))) continue;
    if (seen == count) return i;
    ++seen;
  }
  return text.size();
}

}  // namespace

std::string fit_body(std::string_view text, std::size_t limit) {
  const std::size_t total = code_points(text);
  if (total <= limit) return std::string(text);
  // The notice is ASCII, so its length in bytes is its length in code points.
  const auto notice = [&](std::size_t kept) {
    return "\n\n---\n*kblaster: cut here to keep within GitHub's limit of " +
           std::to_string(limit) + " characters; " + std::to_string(total - kept) +
           " characters were left out. The full report is in the job summary and the run's "
           "--report files.*\n";
  };
  const std::size_t room = limit - notice(0).size();  // the longest notice
  std::size_t end = offset_of(text, room);
  const std::size_t newline = text.rfind('\n', end);
  if (newline != std::string_view::npos && newline + 2000 > end) end = newline;
  const std::string_view kept = text.substr(0, end);
  return std::string(kept) + notice(code_points(kept));
}

}  // namespace kblaster
