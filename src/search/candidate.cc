#include "search/candidate.h"

#include <cstdio>
#include <functional>

namespace kblaster {

std::string Candidate::fingerprint() const {
  std::string key = source + '\x1f' + arch;
  for (const auto& f : extra_flags) key += '\x1f' + f;
  for (const auto& [k, v] : macros) key += std::string("\x1f") + "D" + k + '=' + v;
  for (const auto& [k, v] : launcher_args)
    key += std::string("\x1f") + "A" + k + '=' + std::to_string(v);
  // FNV-1a, 64 bit: stable across runs and platforms (std::hash is not).
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : key) h = (h ^ c) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace kblaster
