#include "search/candidate.h"

#include <cstdio>

namespace kblaster {

std::string stable_hash(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;  // the FNV-1a 64-bit offset basis
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string Candidate::fingerprint() const {
  std::string key = source + '\x1f' + arch;
  for (const auto& f : extra_flags) key += '\x1f' + f;
  for (const auto& [k, v] : macros) key += std::string("\x1f") + "D" + k + '=' + v;
  for (const auto& [k, v] : launcher_args)
    key += std::string("\x1f") + "A" + k + '=' + std::to_string(v);
  return stable_hash(key);
}

}  // namespace kblaster
