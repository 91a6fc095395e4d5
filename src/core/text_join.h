// Short texts made of lists and long messages: how a reason is shown on one line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

// `items` joined with `separator` between them: {"a", "b"} and "; " give "a; b".
std::string join_texts(const std::vector<std::string>& items, std::string_view separator = "; ");

// The first line of `text`, cut to at most `max_chars` characters with "..." when longer.
std::string first_line(std::string_view text, std::size_t max_chars = 200);

}  // namespace kblaster
