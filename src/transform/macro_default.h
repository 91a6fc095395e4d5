// The source form of a -D tunable: the value the search chose, written as the default
// of the source's own `#define`, so that a build which passes no -D compiles it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "transform/source_rewrite.h"

namespace kblaster {

// `source` with the value of its one object-like `#define NAME value` replaced by
// `value` (a trailing comment kept). Unchanged, with the reason, when the source has no
// such definition, more than one, a function-like one, or one continued onto the next
// line; or when it already says `value`.
SourceRewrite set_macro_default(std::string_view source, std::string_view name,
                                std::string_view value);

// The value of the source's one object-like `#define NAME value`, as written; nullopt
// when set_macro_default could not set it (none, several, function-like, continued).
std::optional<std::string> macro_default(std::string_view source, std::string_view name);

}  // namespace kblaster
