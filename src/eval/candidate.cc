#include "eval/candidate.h"

#include "core/stable_hash.h"

namespace kblaster {

std::string Candidate::fingerprint() const {
  std::string key = source + '\x1f' + arch;
  for (const auto& f : extra_flags) key += '\x1f' + f;
  for (const auto& [k, v] : macros) key += std::string("\x1f") + "D" + k + '=' + v;
  for (const auto& [k, v] : launcher_args)
    key += std::string("\x1f") + "A" + k + '=' + std::to_string(v);
  return stable_hash(key);
}

}  // namespace kblaster
