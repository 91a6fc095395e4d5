// Where a source defines its launcher, the host function a spec names (DESIGN.md, "Kernel
// spec"): found lexically, so comments and string literals never count.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

// One definition of the launcher (a declaration without a body is not one).
struct LauncherDefinition {
  std::size_t name_begin = 0;                // offset of its unqualified name
  std::vector<std::string> parameter_types;  // parameter_type() of each; `(void)` is none
};

// Every definition with a body of `launcher` ("launch", "ns::launch", "::launch") at
// namespace scope in `source`, in order: the namespaces around it, and a qualifier written
// before the name (`void ns::launch(...) {`), make its full name. Calls, member functions
// and anything inside a comment or a literal are not definitions. Limits: no preprocessing
// (both sides of an #if count); `using namespace` and inline namespaces are not followed;
// only the first 10,000 mentions of the name are looked at, and a parameter list of at
// most 4 KiB.
std::vector<LauncherDefinition> find_launcher_definitions(std::string_view source,
                                                          std::string_view launcher);

// "(float*, const float*, int)": a parameter list for messages.
std::string parameter_list_text(const std::vector<std::string>& types);

}  // namespace kblaster
