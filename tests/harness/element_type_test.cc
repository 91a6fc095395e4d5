// Host-side element conversion, as the harness does it for a CPU reference that takes another
// type than the kernel (`reference_type`): bf16 inputs widened to float, float outputs rounded
// back to bf16.
#include "element_type.h"

#include <cuda_bf16.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace kblaster::harness {
namespace {

template <class T>
std::vector<unsigned char> bytes_of(const std::vector<T>& values) {
  std::vector<unsigned char> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

TEST(ConvertElements, Bf16WidensToFloatExactlyAndFloatRoundsBackToNearest) {
  const std::vector<float> floats = {1.0f, -2.5f, 3.14159265f, 1e-3f,
                                     std::numeric_limits<float>::quiet_NaN()};
  std::vector<__nv_bfloat16> bf(floats.size());
  for (std::size_t i = 0; i < floats.size(); ++i) bf[i] = __float2bfloat16(floats[i]);

  const auto wide = convert_elements(ElementType::bf16, ElementType::f32, bytes_of(bf));
  ASSERT_EQ(wide.size(), floats.size() * 4);
  for (std::size_t i = 0; i < bf.size(); ++i) {
    const float expected = __bfloat162float(bf[i]);
    if (std::isnan(expected))
      EXPECT_TRUE(std::isnan(element_to_double(ElementType::f32, wide.data(), i)));
    else
      EXPECT_EQ(element_to_double(ElementType::f32, wide.data(), i), expected) << i;
  }
  const auto narrow = convert_elements(ElementType::f32, ElementType::bf16, bytes_of(floats));
  ASSERT_EQ(narrow.size(), floats.size() * 2);
  EXPECT_EQ(element_to_double(ElementType::bf16, narrow.data(), 2), 3.140625)
      << "pi rounds to the nearest bf16";
  EXPECT_TRUE(std::isnan(element_to_double(ElementType::bf16, narrow.data(), 4)))
      << "a NaN the reference wrote stays NaN, so it is not taken for a value";
}

TEST(ConvertElements, IntegersWidenAndTheSameTypeIsTheSameBytes) {
  const std::vector<std::int32_t> ids = {0, 50256, -7};
  const auto wide = convert_elements(ElementType::i32, ElementType::i64, bytes_of(ids));
  ASSERT_EQ(wide.size(), 3 * 8u);
  EXPECT_EQ(element_to_double(ElementType::i64, wide.data(), 1), 50256.0);
  EXPECT_EQ(element_to_double(ElementType::i64, wide.data(), 2), -7.0);
  const auto same = bytes_of(ids);
  EXPECT_EQ(convert_elements(ElementType::i32, ElementType::i32, same), same);
}

}  // namespace
}  // namespace kblaster::harness
