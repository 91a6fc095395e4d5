#include "github/claims.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "core/input_limits.h"

namespace kblaster {
namespace {

constexpr std::size_t kMaxBodyBytes = 65536;

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

// Drops leading blanks and decoration: spaces, "-", "*", "+", ">", "|" and "`".
std::string_view trim_decoration(std::string_view s) {
  while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.front())) ||
                        std::string_view("-*+>|`").find(s.front()) != std::string_view::npos))
    s.remove_prefix(1);
  return s;
}

// Drops blanks and the emphasis a name may wear: spaces, tabs, "*" and "`".
std::string_view trim_emphasis(std::string_view s) {
  while (!s.empty() && std::string_view(" \t*`").find(s.front()) != std::string_view::npos)
    s.remove_prefix(1);
  return s;
}

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), s.begin(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
}

// "FACTORx" or "FACTOR×" at the start of `s`; 0 when it is not one.
double read_factor(std::string_view s) {
  std::size_t end = 0;
  while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '.'))
    ++end;
  if (end == 0) return 0;
  double factor = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + end, factor);
  if (ec != std::errc() || ptr != s.data() + end) return 0;
  const std::string_view rest = s.substr(end);
  const bool times = starts_with_nocase(rest, "x") || rest.starts_with("\xC3\x97");  // ×
  return times && std::isfinite(factor) && factor > 0 ? factor : 0;
}

// The claim on `line`, or why a line that starts like one is not one ("" when the
// line does not start with "kernel:" at all).
struct LineRead {
  SpeedupClaim claim;
  std::string problem;
  bool looks_like_claim = false;
};

LineRead read_line(std::string_view line) {
  LineRead read;
  line = trim_decoration(line);
  if (!starts_with_nocase(line, "kernel:")) return read;
  read.looks_like_claim = true;
  line.remove_prefix(7);
  line = trim_decoration(line);
  std::size_t end = 0;
  while (end < line.size() && is_name_char(line[end])) ++end;
  const bool starts_well =
      end > 0 && (std::isalpha(static_cast<unsigned char>(line[0])) || line[0] == '_');
  if (!starts_well || end > kMaxKernelNameLength) {
    read.problem = "no kernel name after \"kernel:\"";
    return read;
  }
  read.claim.kernel = std::string(line.substr(0, end));
  line = trim_emphasis(line.substr(end));
  if (line.starts_with(":")) line = trim_emphasis(line.substr(1));
  read.claim.factor = read_factor(line);
  if (read.claim.factor == 0)
    read.problem = "no speedup such as \"1.8x\" after " + read.claim.kernel;
  return read;
}

}  // namespace

ClaimList parse_claims(std::string_view body) {
  ClaimList list;
  if (body.size() > kMaxBodyBytes) body = body.substr(0, kMaxBodyBytes);
  std::size_t number = 0;
  while (!body.empty()) {
    const std::size_t newline = body.find('\n');
    std::string_view line = body.substr(0, newline);
    body = newline == std::string_view::npos ? std::string_view() : body.substr(newline + 1);
    ++number;
    const LineRead read = read_line(line);
    if (!read.looks_like_claim) continue;
    const std::string where = "line " + std::to_string(number) + ": ";
    if (!read.problem.empty()) {
      list.ignored.push_back(where + read.problem);
      continue;
    }
    const bool seen =
        std::any_of(list.claims.begin(), list.claims.end(),
                    [&](const SpeedupClaim& c) { return c.kernel == read.claim.kernel; });
    if (seen) {
      list.ignored.push_back(where + read.claim.kernel +
                             " is claimed twice; the first claim counts");
    } else if (list.claims.size() == kMaxClaims) {
      list.ignored.push_back(where + "more than " + std::to_string(kMaxClaims) +
                             " claims; the rest are not measured");
      break;
    } else {
      list.claims.push_back(read.claim);
      list.claims.back().line = number;
    }
  }
  return list;
}

}  // namespace kblaster
