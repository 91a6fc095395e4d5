// Names in a config (kernels, launchers, reference functions, macros, arguments),
// checked by linear scanners: no regex, whose matcher recurses once per character.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kblaster {

// What a name names; each kind has its character rule and length limit (input_limits.h).
enum class NameKind { argument, macro, function, kernel };

// [A-Za-z_][A-Za-z0-9_]*
bool is_identifier(std::string_view s);
// (::)?identifier(::identifier)*, e.g. "launch", "ns::launch", "::launch".
bool is_qualified_identifier(std::string_view s);
// [A-Za-z0-9_][A-Za-z0-9_.-]*: usable as one path component and as an argument,
// so never "", ".", "..", "-rf" or "--help", and never with a '/'.
bool is_kernel_name(std::string_view s);

// A PyTorch module's parameter or buffer name: words ([A-Za-z0-9_]+) joined by single dots
// ("conv.weight", "layers.0.bias"), at most kMaxNameLength characters.
bool is_module_tensor_name(std::string_view s);

// Why `name` is not a valid name of `kind`, as a message without a location that
// names the broken rule or limit; nullopt when it is valid.
std::optional<std::string> name_problem(std::string_view name, NameKind kind);

}  // namespace kblaster
