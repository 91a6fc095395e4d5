#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <array>
#include <string_view>

#include "element_type.h"

namespace kblaster::harness {
namespace {

struct TypeInfo {
  ElementType type;
  std::string_view name;
  std::size_t size;
};

constexpr std::array<TypeInfo, 10> kTypes = {{{ElementType::f64, "f64", 8},
                                              {ElementType::f32, "f32", 4},
                                              {ElementType::f16, "f16", 2},
                                              {ElementType::bf16, "bf16", 2},
                                              {ElementType::i64, "i64", 8},
                                              {ElementType::i32, "i32", 4},
                                              {ElementType::i16, "i16", 2},
                                              {ElementType::i8, "i8", 1},
                                              {ElementType::u8, "u8", 1},
                                              {ElementType::boolean, "bool", 1}}};

}  // namespace

std::optional<ElementType> parse_element_type(std::string_view name) {
  for (const auto& t : kTypes)
    if (t.name == name) return t.type;
  return std::nullopt;
}

std::size_t element_size(ElementType t) { return kTypes[static_cast<std::size_t>(t)].size; }

bool is_floating(ElementType t) {
  return t == ElementType::f64 || t == ElementType::f32 || t == ElementType::f16 ||
         t == ElementType::bf16;
}

double element_to_double(ElementType t, const void* data, std::size_t i) {
  switch (t) {
    case ElementType::f64:
      return static_cast<const double*>(data)[i];
    case ElementType::f32:
      return static_cast<const float*>(data)[i];
    case ElementType::f16:
      return __half2float(static_cast<const __half*>(data)[i]);
    case ElementType::bf16:
      return __bfloat162float(static_cast<const __nv_bfloat16*>(data)[i]);
    case ElementType::i64:
      return static_cast<double>(static_cast<const std::int64_t*>(data)[i]);
    case ElementType::i32:
      return static_cast<const std::int32_t*>(data)[i];
    case ElementType::i16:
      return static_cast<const std::int16_t*>(data)[i];
    case ElementType::i8:
      return static_cast<const std::int8_t*>(data)[i];
    case ElementType::u8:
    case ElementType::boolean:
      return static_cast<const std::uint8_t*>(data)[i];
  }
  return 0.0;
}

void element_from_double(ElementType t, void* data, std::size_t i, double v) {
  switch (t) {
    case ElementType::f64:
      static_cast<double*>(data)[i] = v;
      break;
    case ElementType::f32:
      static_cast<float*>(data)[i] = static_cast<float>(v);
      break;
    case ElementType::f16:
      static_cast<__half*>(data)[i] = __float2half(static_cast<float>(v));
      break;
    case ElementType::bf16:
      static_cast<__nv_bfloat16*>(data)[i] = __float2bfloat16(static_cast<float>(v));
      break;
    case ElementType::i64:
      static_cast<std::int64_t*>(data)[i] = static_cast<std::int64_t>(v);
      break;
    case ElementType::i32:
      static_cast<std::int32_t*>(data)[i] = static_cast<std::int32_t>(v);
      break;
    case ElementType::i16:
      static_cast<std::int16_t*>(data)[i] = static_cast<std::int16_t>(v);
      break;
    case ElementType::i8:
      static_cast<std::int8_t*>(data)[i] = static_cast<std::int8_t>(v);
      break;
    case ElementType::u8:
    case ElementType::boolean:
      static_cast<std::uint8_t*>(data)[i] = static_cast<std::uint8_t>(v);
      break;
  }
}

std::vector<unsigned char> convert_elements(ElementType from, ElementType to,
                                            const std::vector<unsigned char>& bytes) {
  if (from == to) return bytes;
  const std::size_t n = bytes.size() / element_size(from);
  std::vector<unsigned char> out(n * element_size(to));
  for (std::size_t i = 0; i < n; ++i)
    element_from_double(to, out.data(), i, element_to_double(from, bytes.data(), i));
  return out;
}

}  // namespace kblaster::harness
