// GitHub's pagination: the `Link` response header (RFC 8288) that names the next page.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kblaster {

// The URL of the link whose rel includes "next" in the Link header `value`
// (`<https://…?page=2>; rel="next", <…>; rel="last"`); nullopt when there is none or
// the header does not parse. Quoted and unquoted rel values, several space-separated
// rels, and any order of parameters are read.
std::optional<std::string> next_page_url(std::string_view value);

}  // namespace kblaster
