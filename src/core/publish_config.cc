#include "core/publish_config.h"

namespace kblaster {

std::string_view pr_grouping_name(PrGrouping grouping) {
  switch (grouping) {
    case PrGrouping::per_kernel:
      return "per_kernel";
    case PrGrouping::per_sweep:
      return "per_sweep";
  }
  return "";
}

}  // namespace kblaster
