// Where a reference function in a .cu file runs (issue 22): a .cu file may hold a trusted GPU
// launcher or a plain CPU function, and taking the second for the first hands device pointers to
// host code. Decided from the function's own definition, read lexically (comments and literals
// never count), unless the spec says `reference_on`.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kblaster {

// The text between the braces of the first definition of `function` (its unqualified name: "f"
// of "ns::f") in `source`, with comments and literals blanked; nullopt when none is found. A
// name followed by a parenthesised list and then `{` (after any of const, noexcept, override,
// final, `-> T` or attributes) is a definition; calls and declarations are not. No
// preprocessing: both sides of an #if count. Only the first 10,000 mentions of the name are
// looked at, a parameter list of at most 4 KiB, and a trailing return type of at most 1 KiB.
std::optional<std::string> function_body(std::string_view source, std::string_view function);

// Why `body` shows GPU work, or "" when it shows none: a kernel launch (`<<<`), or a call into
// the CUDA runtime or a CUDA library (cuda*, cublas*, cudnn*, cufft*, curand*, cusparse*,
// cusolver*, cub::, thrust::, cutlass::).
std::string gpu_work_in(std::string_view body);

}  // namespace kblaster
