// A nesting check for JSON text before it is parsed, so that no document from outside (a
// saved result, an LLM's answer) makes a parser or a later walk go as deep as it asks.
#pragma once

#include <cstddef>
#include <string_view>

namespace kblaster {

// Whether arrays and objects in the JSON `text` nest deeper than `limit`; a scan that never
// recurses and skips brackets inside strings. Malformed text is scanned all the same.
bool nests_deeper_than(std::string_view text, std::size_t limit);

}  // namespace kblaster
