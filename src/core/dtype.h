// Element types a kernel argument may have, with their sizes and C++ spellings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kblaster {

enum class DType { f64, f32, f16, bf16, i64, i32, i16, i8, u8, boolean };

// Tolerance of an output comparison: |out - ref| <= atol + rtol * |ref|.
struct Tolerance {
  double rtol = 0.0;
  double atol = 0.0;
};

// Parses "f32", "bf16", "bool", …; nullopt for an unknown name.
std::optional<DType> parse_dtype(std::string_view name);
// The name as written in a spec ("f32", "bool", …).
std::string_view dtype_name(DType t);
// All names parse_dtype accepts, for error messages and suggestions.
const std::vector<std::string>& dtype_names();
// Bytes per element.
std::size_t dtype_size(DType t);
// The CUDA C++ type the shim passes (float, __half, __nv_bfloat16, int32_t, …).
std::string_view dtype_cxx_type(DType t);
bool is_floating(DType t);
// Whether `v` is representable in the integer (or bool: 0/1) type `t`; true for floating types.
bool fits_integer(DType t, std::int64_t v);
// Default comparison tolerance for outputs of this type; exact for integers.
Tolerance default_tolerance(DType t);

}  // namespace kblaster
