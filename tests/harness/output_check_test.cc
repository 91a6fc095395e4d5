// The harness's host-side output checks on hand-made snapshots: built as CUDA
// like the harness (its headers need the CUDA runtime's), run without a device.
#include "output_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>

namespace kblaster::harness {
namespace {

using ::testing::HasSubstr;

ArgDesc f32_output(const char* name, std::size_t elements) {
  ArgDesc a;
  a.name = name;
  a.type = ElementType::f32;
  a.role = Role::out;
  a.is_buffer = true;
  a.elements = elements;
  return a;
}

std::vector<unsigned char> bytes(const std::vector<float>& values) {
  std::vector<unsigned char> out(values.size() * sizeof(float));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

TEST(OutputCheck, WithinTolerancePassesWithItsLargestErrors) {
  const ArgDesc out = f32_output("out", 3);
  const Verdict v = compare_outputs({&out}, {bytes({1.0f, 2.001f, 0.0f})},
                                    {bytes({1.0f, 2.0f, 0.0f})}, Tolerance{1e-3, 0.0});
  EXPECT_TRUE(v.passed) << v.message;
  EXPECT_NEAR(v.detail["max_abs_error"].get<double>(), 0.001, 1e-6);
  EXPECT_NEAR(v.detail["max_rel_error"].get<double>(), 0.0005, 1e-6);
}

TEST(OutputCheck, AWrongElementIsNamedWithItsErrors) {
  const ArgDesc out = f32_output("out", 4);
  const Verdict v = compare_outputs({&out}, {bytes({1.0f, 2.0f, 3.5f, 4.0f})},
                                    {bytes({1.0f, 2.0f, 3.0f, 4.0f})}, Tolerance{1e-5, 1e-6});
  ASSERT_FALSE(v.passed);
  EXPECT_EQ(v.reason, "wrong_result");
  EXPECT_THAT(v.message, HasSubstr("`out`[2] is 3.500000, expected 3.000000"));
  EXPECT_THAT(v.message, HasSubstr("1 bad elements; max abs error 0.500000, max rel error"));
  EXPECT_EQ(v.detail["index"].get<std::size_t>(), 2u);
}

// Where every expected value is 0, no relative error exists: the message says
// so instead of printing a relative error of 0.000000.
TEST(OutputCheck, NoRelativeErrorAgainstZeros) {
  const ArgDesc out = f32_output("out", 3);
  const Verdict v = compare_outputs({&out}, {bytes({0.0f, 0.25f, 0.0f})},
                                    {bytes({0.0f, 0.0f, 0.0f})}, Tolerance{1e-5, 1e-6});
  ASSERT_FALSE(v.passed);
  EXPECT_EQ(v.reason, "wrong_result");
  EXPECT_THAT(v.message, HasSubstr("max abs error 0.250000, no relative error (no expected value "
                                   "is a normal float)"));
  EXPECT_THAT(v.message, ::testing::Not(HasSubstr("max rel error")));
}

// A pass against all-zero expected values has no relative error either: the
// detail says null, where it used to claim a relative error of exactly 0.
TEST(OutputCheck, APassAgainstZerosHasANullRelativeError) {
  const ArgDesc out = f32_output("out", 3);
  const Verdict v = compare_outputs({&out}, {bytes({0.0f, 1e-7f, 0.0f})},
                                    {bytes({0.0f, 0.0f, 0.0f})}, Tolerance{1e-5, 1e-6});
  ASSERT_TRUE(v.passed) << v.message;
  EXPECT_NEAR(v.detail["max_abs_error"].get<double>(), 1e-7, 1e-12);
  EXPECT_TRUE(v.detail["max_rel_error"].is_null()) << v.detail.dump();
}

// Integer outputs compare exactly and have no relative error, whatever their values.
TEST(OutputCheck, IntegerOutputsHaveANullRelativeError) {
  ArgDesc out = f32_output("counts", 3);
  out.type = ElementType::i32;
  const std::vector<std::int32_t> counts = {7, 0, 123456};
  std::vector<unsigned char> raw(counts.size() * sizeof(std::int32_t));
  std::memcpy(raw.data(), counts.data(), raw.size());
  const Verdict v = compare_outputs({&out}, {raw}, {raw}, Tolerance{0.0, 0.0});
  ASSERT_TRUE(v.passed) << v.message;
  EXPECT_EQ(v.detail["max_abs_error"].get<double>(), 0.0);
  EXPECT_TRUE(v.detail["max_rel_error"].is_null()) << v.detail.dump();
}

TEST(OutputCheck, NonFiniteWhereTheReferenceIsFiniteIsItsOwnReason) {
  const ArgDesc out = f32_output("out", 2);
  const Verdict v =
      compare_outputs({&out}, {bytes({1.0f, std::numeric_limits<float>::quiet_NaN()})},
                      {bytes({1.0f, 2.0f})}, Tolerance{1e-5, 1e-6});
  ASSERT_FALSE(v.passed);
  EXPECT_EQ(v.reason, "nonfinite");
}

// Integers compare exactly: one count off is a wrong result, named with its values.
TEST(OutputCheck, AnIntegerMismatchIsAWrongResult) {
  ArgDesc out = f32_output("counts", 3);
  out.type = ElementType::i32;
  const std::vector<std::int32_t> got = {7, 1, 123456}, want = {7, 0, 123456};
  std::vector<unsigned char> g(got.size() * sizeof(std::int32_t)), w(g.size());
  std::memcpy(g.data(), got.data(), g.size());
  std::memcpy(w.data(), want.data(), w.size());
  const Verdict v = compare_outputs({&out}, {g}, {w}, Tolerance{0.5, 0.5});
  ASSERT_FALSE(v.passed) << "a tolerance does not loosen an integer comparison";
  EXPECT_EQ(v.reason, "wrong_result");
  EXPECT_EQ(v.detail["index"].get<std::size_t>(), 1u);
  EXPECT_EQ(v.detail["bad_elements"].get<std::size_t>(), 1u);
}

// An element that kept both launches' poison was never written; one that kept only one
// poison was written (with that value, once).
TEST(OutputCheck, AnElementThatKeptBothPoisonsWasNeverWritten) {
  const ArgDesc out = f32_output("out", 4);
  const unsigned char p1 = 0xA5, p2 = 0x5A;
  std::vector<unsigned char> first(4 * sizeof(float), p1), second(4 * sizeof(float), p2);
  // Elements 0 and 3 written in both launches; 1 only kept p1 in the first (written in the
  // second); 2 kept both poisons.
  for (std::size_t k = 0; k < sizeof(float); ++k) {
    first[0 * sizeof(float) + k] = second[0 * sizeof(float) + k] = 0x11;
    first[3 * sizeof(float) + k] = second[3 * sizeof(float) + k] = 0x22;
    second[1 * sizeof(float) + k] = 0x33;
  }
  const Verdict v = find_unwritten({&out}, {first}, {second}, p1, p2);
  ASSERT_FALSE(v.passed);
  EXPECT_EQ(v.reason, "output_unwritten");
  EXPECT_THAT(v.message,
              HasSubstr("1 of 4 elements of `out` were never written, the first at index 2"));
  EXPECT_TRUE(find_unwritten({&out}, {first}, {first}, p1, p2).passed)
      << "the same bytes twice are not both poisons";
  ArgDesc inout = out;
  inout.role = Role::inout;
  EXPECT_TRUE(find_unwritten({&inout}, {first}, {second}, p1, p2).passed)
      << "only role=out buffers must be written";
}

// An input the launch changed is named with how many elements and the first.
TEST(OutputCheck, AnInputTheLaunchChangedIsMutated) {
  ArgDesc in = f32_output("x", 3);
  in.role = Role::in;
  const auto uploaded = bytes({1.0f, 2.0f, 3.0f});
  EXPECT_TRUE(find_mutated({&in}, {uploaded}, {uploaded}).passed);
  const Verdict v = find_mutated({&in}, {uploaded}, {bytes({1.0f, 2.5f, 3.5f})});
  ASSERT_FALSE(v.passed);
  EXPECT_EQ(v.reason, "input_mutated");
  EXPECT_THAT(v.message, HasSubstr("changed 2 elements of input `x`, the first at index 1"));
}

}  // namespace
}  // namespace kblaster::harness
