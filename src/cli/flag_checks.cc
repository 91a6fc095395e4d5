#include "cli/flag_checks.h"

#include <string>

#include "core/arch_name.h"

namespace kblaster {

CLI::Validator arch_validator() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        return is_arch_name(value)
                   ? std::string()
                   : "`" + value + "` is not a GPU architecture; use one like sm_90 or sm_90a";
      },
      "ARCH");
}

}  // namespace kblaster
