// Reading environment variables through a passed-in lookup, so tests control what a
// command sees ($PATH for nvcc, GitHub Actions' variables, the token).
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace kblaster {

// Reads one environment variable; nullopt when unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

// The real process environment (getenv).
std::optional<std::string> process_environment(const std::string& name);

}  // namespace kblaster
