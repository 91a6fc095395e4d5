// A part of an OpenAPI description: the paths a test names and every component they
// reach through "$ref". GitHub's whole description is 13 MB, and Prism takes about a
// minute to load it on a 2-core machine; the part kblaster uses loads in seconds.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kblaster::testing {

// The description with only the paths `wanted` selects (an entry is a path as the
// description writes it, "/repos/{owner}/{repo}", or a prefix ending in '*'), the
// components those reach, and the top-level fields other than paths, components and
// webhooks. A "$ref" that points nowhere is left as it is (Prism then names it).
nlohmann::json openapi_subset(const nlohmann::json& description,
                              const std::vector<std::string>& wanted);

}  // namespace kblaster::testing
