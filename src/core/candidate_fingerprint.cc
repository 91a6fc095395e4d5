#include "core/candidate_fingerprint.h"

#include "core/stable_hash.h"

namespace kblaster {

std::string candidate_fingerprint(std::string_view source, std::string_view settings) {
  Fnv1a hash;
  hash.add(source);
  hash.add("\x1f");
  hash.add(settings);
  return hash.hex();
}

std::string source_defaults_setting(const std::set<std::string>& tunables) {
  std::string out;
  for (const auto& name : tunables) out += "\x1fS" + name;
  return out;
}

}  // namespace kblaster
