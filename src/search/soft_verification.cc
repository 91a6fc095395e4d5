#include "search/soft_verification.h"

#include <regex>

namespace kblaster {
namespace {

// `text` with comments and string literals blanked (same length, lines kept).
std::string code_only(std::string_view text) {
  std::string out(text);
  enum { code, line, block, str, chr } mode = code;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i], n = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (mode) {
      case code:
        if (c == '/' && n == '/')
          mode = line, out[i] = ' ';
        else if (c == '/' && n == '*')
          mode = block, out[i] = ' ';
        else if (c == '"')
          mode = str;
        else if (c == '\'')
          mode = chr;
        break;
      case line:
        if (c == '\n')
          mode = code;
        else
          out[i] = ' ';
        break;
      case block:
        if (c == '*' && n == '/')
          out[i] = out[i + 1] = ' ', ++i, mode = code;
        else if (c != '\n')
          out[i] = ' ';
        break;
      case str:
      case chr:
        if (c == '\\' && i + 1 < out.size())
          out[i] = ' ', out[i + 1] = ' ', ++i;
        else if ((mode == str && c == '"') || (mode == chr && c == '\''))
          mode = code;
        else if (c != '\n')
          out[i] = ' ';
        break;
    }
  }
  return out;
}

std::size_t count(const std::string& code, const std::regex& re) {
  return static_cast<std::size_t>(
      std::distance(std::sregex_iterator(code.begin(), code.end(), re), std::sregex_iterator()));
}

struct Rule {
  const char* pattern;
  const char* what;
};

constexpr Rule kRules[] = {
    {R"(\bcudaStreamCreate\w*|\bcudaStream_t\s+\w+\s*;)", "creates or holds a stream of its own"},
    {R"(\bstd::(thread|async|jthread)\b|\bpthread_create\b|#\s*pragma\s+omp)",
     "starts host threads"},
    {R"(\bclock(64)?\s*\(|%globaltimer|\bcudaEvent(Record|ElapsedTime)\b|\bstd::chrono\b)",
     "reads a clock or records events"},
    {R"(\bcublas\w*|\bcudnn\w*|\bcutlass::|\bthrust::|\bcub::)", "calls a library shortcut"},
    {R"(\bcudaDeviceSynchronize\b|\bcudaStreamSynchronize\b|\bcudaMemcpy\s*\()",
     "synchronises the device"},
};

}  // namespace

std::vector<std::string> soft_verification_findings(std::string_view baseline,
                                                    std::string_view candidate) {
  const std::string before = code_only(baseline), after = code_only(candidate);
  std::vector<std::string> findings;
  for (const Rule& r : kRules) {
    const std::regex re(r.pattern);
    if (count(after, re) > count(before, re))
      findings.push_back(std::string(r.what) + ", which the baseline does not");
  }
  const std::regex launch(R"(<<<)");
  if (count(after, launch) < count(before, launch))
    findings.push_back("launches fewer kernels than the baseline (" +
                       std::to_string(count(after, launch)) + " against " +
                       std::to_string(count(before, launch)) + "): work may have been removed");
  return findings;
}

}  // namespace kblaster
