#include "core/environment.h"

#include <cstdlib>

namespace kblaster {

std::optional<std::string> process_environment(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  return value ? std::optional<std::string>(value) : std::nullopt;
}

}  // namespace kblaster
