// Refusing an answer that changes how the harness calls the kernel: the generated shim
// calls the launcher with the parent's parameter types (gpu/shim.h), so an answer with
// another parameter list cannot be built, or worse, builds and reads its arguments wrong.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kblaster {

// Why `answer` may not replace `parent`, or nullopt when it may: it must define `launcher`
// ("launch" or "ns::launch") with the parent's parameter types in the parent's order
// (names, whitespace and restrict qualifiers aside), and, where the parent overloads it,
// with the same overloads. A parent that defines no launcher (it comes from a header)
// accepts an answer that defines none either. Pure; comments and literals are not read.
std::optional<std::string> launcher_signature_change(std::string_view parent,
                                                     std::string_view answer,
                                                     std::string_view launcher);

}  // namespace kblaster
