#include "core/stable_hash.h"

#include <cstdio>

namespace kblaster {

std::string Fnv1a::hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
  return buf;
}

std::string stable_hash(std::string_view text) {
  Fnv1a h;
  h.add(text);
  return h.hex();
}

}  // namespace kblaster
