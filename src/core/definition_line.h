// Where a function is defined in a source file, as a line number a person (or a
// GitHub annotation) can point at. Lexical: comments and literals are skipped, and
// nothing is preprocessed.
#pragma once

#include <cstddef>
#include <string_view>

namespace kblaster {

// The 1-based line of the definition of `function` in `source`: the first place in
// code where its unqualified name ("launch" of "ns::launch") stands as a whole
// identifier before "(", and the parameter list's ")" is followed by "{" (after
// whitespace, cv-qualifiers, noexcept or a trailing return type are not looked
// through). Failing that, the line of its first mention before "(". 0 when neither is
// found, or when `function` is empty.
std::size_t definition_line(std::string_view source, std::string_view function);

}  // namespace kblaster
