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

}  // namespace kblaster
