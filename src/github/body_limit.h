// GitHub's limits on the text of a comment, a check run's output or a pull request's
// body, kept by cutting at the end and saying so.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kblaster {

// `text` when it has at most `limit` characters (Unicode code points, as GitHub counts
// them); else its start, cut at a line break where one is near, followed by a notice
// saying how much was cut, the whole within `limit`. `limit` must be at least 200.
std::string fit_body(std::string_view text, std::size_t limit);

}  // namespace kblaster
