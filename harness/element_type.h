// The element types of kernel arguments as the harness sees them: names as in
// the spec ("f32", "bf16", …), sizes, and host-side conversion to double.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace kblaster::harness {

enum class ElementType { f64, f32, f16, bf16, i64, i32, i16, i8, u8, boolean };

std::optional<ElementType> parse_element_type(std::string_view name);
std::size_t element_size(ElementType t);
bool is_floating(ElementType t);
// Element `index` of a host array of type `t`, widened to double.
double element_to_double(ElementType t, const void* data, std::size_t index);
// Stores `value` (already in range) as element `index` of a host array of type `t`.
void element_from_double(ElementType t, void* data, std::size_t index, double value);
// Host elements of type `from` as type `to`, each through double (rounded to nearest for a
// narrower floating type, NaN kept NaN); `bytes` itself when the types are the same.
std::vector<unsigned char> convert_elements(ElementType from, ElementType to,
                                            const std::vector<unsigned char>& bytes);

}  // namespace kblaster::harness
