#include "core/arch_name.h"

namespace kblaster {

bool is_arch_name(std::string_view name) {
  if (name.substr(0, 3) != "sm_") return false;
  name.remove_prefix(3);
  std::size_t digits = 0;
  while (digits < name.size() && name[digits] >= '0' && name[digits] <= '9') ++digits;
  if (digits < 2 || digits > 3) return false;
  name.remove_prefix(digits);
  return name.empty() || name == "a" || name == "f";
}

}  // namespace kblaster
