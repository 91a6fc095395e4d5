#include "eval/candidate.h"

#include "core/candidate_fingerprint.h"

namespace kblaster {

std::string Candidate::fingerprint() const {
  std::string settings = arch;
  for (const auto& f : extra_flags) settings += '\x1f' + f;
  for (const auto& [k, v] : macros) settings += std::string("\x1f") + "D" + k + '=' + v;
  for (const auto& [k, v] : launcher_args)
    settings += std::string("\x1f") + "A" + k + '=' + std::to_string(v);
  settings += source_defaults_setting(source_defaults);
  return candidate_fingerprint(source, settings);
}

}  // namespace kblaster
