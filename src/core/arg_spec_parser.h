// Parsing of one launcher argument (`args = [ { name = …, type = … }, … ]`).
// Checks each argument on its own; rules across arguments live in kernel_spec_parser.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <string_view>

#include "core/kernel_spec.h"
#include "core/status.h"

namespace kblaster {

// `context` names the kernel ("kernel `softmax`"); `index` is the position in `args`.
Result<ArgSpec> parse_arg(const toml::table& table, const std::string& file,
                          const std::string& context, std::size_t index);

// Parses "normal", "normal(0,2)", "uniform(-1,1)", "randint(0,10)". The Error
// message says what is wrong, without a location.
Result<InitDist> parse_init(std::string_view text);

}  // namespace kblaster
