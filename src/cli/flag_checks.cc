#include "cli/flag_checks.h"

#include <string>

#include "core/arch_name.h"

namespace kblaster {

CLI::Validator arch_validator() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        return is_arch_name(value)
                   ? std::string()
                   : "`" + value +
                         "` is not a GPU architecture; use one like sm_90, sm_90a or sm_100f";
      },
      "ARCH");
}

CLI::Validator positive_validator() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        try {
          std::size_t used = 0;
          if (std::stod(value, &used) > 0 && used == value.size()) return {};
        } catch (const std::exception&) {  // not a number: fall through to the message
        }
        return "`" + value + "` is not a positive number";
      },
      "POSITIVE");
}

}  // namespace kblaster
