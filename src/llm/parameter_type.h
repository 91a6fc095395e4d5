// One launcher parameter's type, spelled the same however the source wrote it, so that two
// parameter lists can be compared type by type.
#pragma once

#include <string>
#include <string_view>

namespace kblaster {

// The type of the parameter declaration `declaration` (masked text: no comments), without
// its name, default argument and `__restrict__`/`__restrict`/`restrict`, with tokens
// joined by single spaces only between words, and `T const` written `const T`:
// "const float *__restrict__ x = nullptr" -> "const float*". An unnamed parameter keeps
// its type: "unsigned int" -> "unsigned int", "const size_t" -> "const size_t".
// Limits: typedefs are not resolved (int32_t and int differ); a function-pointer
// parameter loses its name only in the form `R (*name)(...)`.
std::string parameter_type(std::string_view declaration);

}  // namespace kblaster
