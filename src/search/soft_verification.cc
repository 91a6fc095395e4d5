#include "search/soft_verification.h"

#include <regex>

#include "transform/source_text.h"

namespace kblaster {
namespace {

std::size_t count(const std::string& code, const std::regex& re) {
  return static_cast<std::size_t>(
      std::distance(std::sregex_iterator(code.begin(), code.end(), re), std::sregex_iterator()));
}

struct Rule {
  const char* pattern;
  const char* what;
  bool in_literals = false;  // inline PTX lives in string literals: read the raw text
};

constexpr Rule kRules[] = {
    {R"(\bcudaStreamCreate\w*|\bcudaStream_t\s+\w+\s*;)", "creates or holds a stream of its own"},
    {R"(\bstd::(thread|async|jthread)\b|\bpthread_create\b|#\s*pragma\s+omp)",
     "starts host threads"},
    {R"(\bclock(64)?\s*\(|\bcudaEvent(Record|ElapsedTime)\b|\bstd::chrono\b)",
     "reads a clock or records events"},
    {R"(%%?(globaltimer|clock64|clock)\b)", "reads a clock register in inline PTX", true},
    {R"(\bcublas\w*|\bcudnn\w*|\bcutlass::|\bthrust::|\bcub::)", "calls a library shortcut"},
    {R"(\bcudaDeviceSynchronize\b|\bcudaStreamSynchronize\b|\bcudaMemcpy\s*\()",
     "synchronises the device"},
};

}  // namespace

std::vector<std::string> soft_verification_findings(std::string_view baseline,
                                                    std::string_view candidate) {
  const std::string before = mask_source(baseline), after = mask_source(candidate);
  std::vector<std::string> findings;
  for (const Rule& r : kRules) {
    const std::regex re(r.pattern);
    const bool raw = r.in_literals;
    if (count(raw ? std::string(candidate) : after, re) >
        count(raw ? std::string(baseline) : before, re))
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
