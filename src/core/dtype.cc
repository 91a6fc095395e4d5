#include "core/dtype.h"

#include <array>

namespace kblaster {
namespace {

struct DTypeInfo {
  DType type;
  std::string_view name;
  std::size_t size;
  std::string_view cxx;
  Tolerance tolerance;
};

// Tolerances follow the precision of each type: a few ulps of accumulated error
// for f64/f32, and the half-precision types' 10- and 7-bit mantissas.
constexpr std::array<DTypeInfo, 10> kTypes = {{
    {DType::f64, "f64", 8, "double", {1e-10, 1e-12}},
    {DType::f32, "f32", 4, "float", {1e-4, 1e-5}},
    {DType::f16, "f16", 2, "__half", {1e-2, 1e-3}},
    {DType::bf16, "bf16", 2, "__nv_bfloat16", {2e-2, 1e-2}},
    {DType::i64, "i64", 8, "int64_t", {0, 0}},
    {DType::i32, "i32", 4, "int32_t", {0, 0}},
    {DType::i16, "i16", 2, "int16_t", {0, 0}},
    {DType::i8, "i8", 1, "int8_t", {0, 0}},
    {DType::u8, "u8", 1, "uint8_t", {0, 0}},
    {DType::boolean, "bool", 1, "bool", {0, 0}},
}};

const DTypeInfo& info(DType t) { return kTypes[static_cast<std::size_t>(t)]; }

}  // namespace

std::optional<DType> parse_dtype(std::string_view name) {
  for (const auto& i : kTypes)
    if (i.name == name) return i.type;
  return std::nullopt;
}

std::string_view dtype_name(DType t) { return info(t).name; }

const std::vector<std::string>& dtype_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& i : kTypes) v.emplace_back(i.name);
    return v;
  }();
  return names;
}

std::size_t dtype_size(DType t) { return info(t).size; }
std::string_view dtype_cxx_type(DType t) { return info(t).cxx; }
bool is_floating(DType t) {
  return t == DType::f64 || t == DType::f32 || t == DType::f16 || t == DType::bf16;
}
bool fits_integer(DType t, std::int64_t v) {
  switch (t) {
    case DType::i32:
      return v >= INT32_MIN && v <= INT32_MAX;
    case DType::i16:
      return v >= INT16_MIN && v <= INT16_MAX;
    case DType::i8:
      return v >= INT8_MIN && v <= INT8_MAX;
    case DType::u8:
      return v >= 0 && v <= UINT8_MAX;
    case DType::boolean:
      return v == 0 || v == 1;
    default:
      return true;
  }
}

Tolerance default_tolerance(DType t) { return info(t).tolerance; }

}  // namespace kblaster
