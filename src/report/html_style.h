// The report page's one stylesheet: light and dark themes (prefers-color-scheme),
// print, and the classes the charts draw with (svg.h).
#pragma once

#include <string_view>

namespace kblaster {

// The CSS text of the <style> element; no external resource, no @import.
std::string_view report_css();

}  // namespace kblaster
