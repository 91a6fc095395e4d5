// Text made safe as one component of a REST URL: a path segment ("heads%2Fmain", as
// Octokit sends a ref) or a query value ("acme%3Akblaster%2Foptimize%2Fsoftmax").
#pragma once

#include <string>
#include <string_view>

namespace kblaster {

// `text` with every byte other than the unreserved characters of RFC 3986 (letters,
// digits, '-', '.', '_', '~') percent-encoded, '/' included.
std::string url_component(std::string_view text);

}  // namespace kblaster
