#include "core/arch_name.h"

#include <regex>
#include <string>

namespace kblaster {

bool is_arch_name(std::string_view name) {
  static const std::regex re("sm_[0-9]{2,3}[af]?");
  return std::regex_match(std::string(name), re);
}

}  // namespace kblaster
