#include "search/soft_verification.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>

#include "transform/source_text.h"

namespace kblaster {
namespace {

// The rules, in the order their findings are reported.
enum Rule : std::size_t { stream, threads, clock, ptx_clock, library, sync, kRuleCount };

constexpr std::array<const char*, kRuleCount> kWhat = {
    "creates or holds a stream of its own",
    "starts host threads",
    "reads a clock or records events",
    "reads a clock register in inline PTX",
    "calls a library shortcut",
    "synchronises the device",
};

using Counts = std::array<std::size_t, kRuleCount>;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// A scanner over one text: maximal runs of [A-Za-z0-9_] ("words") and what follows
// them. Linear in the text, with no regex (whose matcher recurses per character).
struct Words {
  std::string_view text;

  std::size_t word_end(std::size_t at) const {
    while (at < text.size() && is_identifier_char(text[at])) ++at;
    return at;
  }
  std::size_t spaces_end(std::size_t at) const {
    while (at < text.size() && is_space(text[at])) ++at;
    return at;
  }
  bool at(std::size_t pos, std::string_view s) const { return text.substr(pos).starts_with(s); }
  // The word after "::" at `pos`, or "" when there is none.
  std::string_view scoped_word(std::size_t pos) const {
    if (!at(pos, "::")) return {};
    return text.substr(pos + 2, word_end(pos + 2) - (pos + 2));
  }
};

bool starts_with_any(std::string_view word, std::initializer_list<std::string_view> prefixes) {
  for (std::string_view p : prefixes)
    if (word.starts_with(p)) return true;
  return false;
}
bool is_any(std::string_view word, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    if (word == n) return true;
  return false;
}

// How often each rule but ptx_clock matches `masked`, word by word.
void count_words(std::string_view masked, Counts& counts) {
  const Words w{masked};
  for (std::size_t pos = 0; pos < masked.size();) {
    if (!is_identifier_char(masked[pos])) {
      if (masked[pos] == '#') {  // # pragma omp
        std::size_t p = w.spaces_end(pos + 1);
        if (w.at(p, "pragma")) {
          const std::size_t after = w.spaces_end(p + 6);
          if (after > p + 6 && w.at(after, "omp")) ++counts[threads];
        }
      }
      ++pos;
      continue;
    }
    const std::size_t end = w.word_end(pos);
    const std::string_view word = masked.substr(pos, end - pos);
    const std::string_view scoped = w.scoped_word(end);
    const bool called = w.at(w.spaces_end(end), "(");
    if (word.starts_with("cudaStreamCreate")) ++counts[stream];
    if (word == "cudaStream_t") {  // cudaStream_t name;
      const std::size_t name = w.spaces_end(end);
      const std::size_t name_end = w.word_end(name);
      if (name > end && name_end > name && w.at(w.spaces_end(name_end), ";")) ++counts[stream];
    }
    if ((word == "std" && is_any(scoped, {"thread", "async", "jthread"})) ||
        word == "pthread_create")
      ++counts[threads];
    if ((is_any(word, {"clock", "clock64"}) && called) ||
        is_any(word, {"cudaEventRecord", "cudaEventElapsedTime"}) ||
        (word == "std" && scoped == "chrono"))
      ++counts[clock];
    if (starts_with_any(word, {"cublas", "cudnn"}) ||
        (is_any(word, {"cutlass", "thrust", "cub"}) && w.at(end, "::")))
      ++counts[library];
    if (is_any(word, {"cudaDeviceSynchronize", "cudaStreamSynchronize"}) ||
        (word == "cudaMemcpy" && called))
      ++counts[sync];
    pos = end;
  }
}

// %globaltimer, %clock64, %clock (or %%… inside an asm string) in the raw text.
std::size_t count_ptx_clocks(std::string_view raw) {
  const Words w{raw};
  std::size_t n = 0;
  for (std::size_t pos = raw.find('%'); pos != std::string_view::npos; pos = raw.find('%', pos)) {
    std::size_t name = pos + 1;
    if (w.at(name, "%")) ++name;
    const std::size_t end = w.word_end(name);
    if (is_any(raw.substr(name, end - name), {"globaltimer", "clock64", "clock"})) ++n;
    pos = std::max(end, pos + 1);
  }
  return n;
}

Counts count_rules(std::string_view source, std::string_view masked) {
  Counts counts{};
  count_words(masked, counts);
  counts[ptx_clock] = count_ptx_clocks(source);  // inline PTX lives in string literals
  return counts;
}

std::size_t count_launches(std::string_view masked) {
  std::size_t n = 0;
  for (std::size_t at = masked.find("<<<"); at != std::string_view::npos;
       at = masked.find("<<<", at + 3))
    ++n;
  return n;
}

}  // namespace

std::vector<std::string> soft_verification_findings(std::string_view baseline,
                                                    std::string_view candidate) {
  const std::string before = mask_source(baseline), after = mask_source(candidate);
  const Counts had = count_rules(baseline, before), has = count_rules(candidate, after);
  std::vector<std::string> findings;
  for (std::size_t r = 0; r < kRuleCount; ++r)
    if (has[r] > had[r])
      findings.push_back(std::string(kWhat[r]) + ", which the baseline does not");
  const std::size_t launches_before = count_launches(before),
                    launches_after = count_launches(after);
  if (launches_after < launches_before)
    findings.push_back("launches fewer kernels than the baseline (" +
                       std::to_string(launches_after) + " against " +
                       std::to_string(launches_before) + "): work may have been removed");
  return findings;
}

}  // namespace kblaster
