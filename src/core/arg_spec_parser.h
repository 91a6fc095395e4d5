// Parsing of one launcher argument (`args = [ { name = …, type = … }, … ]`).
// Checks each argument on its own; rules across arguments live in kernel_spec_parser.
#pragma once

#include <toml++/toml.h>

#include <string>

#include "core/kernel_spec.h"
#include "core/status.h"

namespace kblaster {

// `context` names the kernel ("kernel `softmax`"); `index` is the position in `args`; `init`
// bounds may name the kernel's `constants`.
Result<ArgSpec> parse_arg(const toml::table& table, const std::string& file,
                          const std::string& context, std::size_t index,
                          const std::map<std::string, std::int64_t>& constants = {});

}  // namespace kblaster
