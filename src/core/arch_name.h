// GPU architecture names as nvcc takes them ("sm_90", "sm_90a", "sm_100f"), checked in one
// place for kblaster.toml's [project].arch and every --arch flag.
#pragma once

#include <string_view>

namespace kblaster {

// True for "sm_" followed by two or three digits and an optional "a"
// (architecture-specific) or "f" (family-specific).
bool is_arch_name(std::string_view name);

}  // namespace kblaster
