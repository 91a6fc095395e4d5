// The guard regions' host-side logic on hand-made guards: the canary pattern,
// finding the bytes a launch changed, and the out_of_bounds_write verdict that
// names the buffer, the side and the offset. Built as CUDA like the harness; no device.
#include "guard_region.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>

#include "output_check.h"

namespace kblaster::harness {
namespace {

using ::testing::HasSubstr;

std::uint32_t word(const std::vector<unsigned char>& bytes, std::size_t k) {
  std::uint32_t w = 0;
  for (std::size_t b = 0; b < 4; ++b) w |= static_cast<std::uint32_t>(bytes[4 * k + b]) << (8 * b);
  return w;
}

ArgDesc buffer(const char* name, ElementType type, std::size_t elements) {
  ArgDesc a;
  a.name = name;
  a.type = type;
  a.role = Role::out;
  a.is_buffer = true;
  a.elements = elements;
  return a;
}

TEST(GuardRegion, IsAWholeNumberOfAlignmentUnitsOfAtLeastFourKiB) {
  EXPECT_GE(kGuardBytes, 4096u);
  EXPECT_EQ(kGuardBytes % 256, 0u);
}

// The documented formula, word by word, so the protocol text stays true.
TEST(GuardRegion, TheCanaryFollowsItsDocumentedFormula) {
  const auto before = canary_bytes(0, GuardSide::before);
  const auto after = canary_bytes(2, GuardSide::after);
  ASSERT_EQ(before.size(), kGuardBytes);
  EXPECT_EQ(word(before, 0), 0xCA11AB1Eu ^ 0x9E3779B9u);
  EXPECT_EQ(word(before, 3), 0xCA11AB1Eu ^ 0x9E3779B9u ^ (3u * 0x85EBCA6Bu));
  EXPECT_EQ(word(after, 7), 0xCA11AB1Eu ^ (6u * 0x9E3779B9u) ^ (7u * 0x85EBCA6Bu));
}

// Neither a constant fill nor shared between guards: a kernel that writes one
// value, or copies one guard over another, still changes what it touches.
TEST(GuardRegion, TheCanaryDiffersPerBufferAndSideAndIsNoConstantFill) {
  std::set<std::vector<unsigned char>> distinct;
  for (std::size_t arg = 0; arg < 4; ++arg)
    for (GuardSide side : {GuardSide::before, GuardSide::after})
      distinct.insert(canary_bytes(arg, side));
  EXPECT_EQ(distinct.size(), 8u);
  const auto canary = canary_bytes(1, GuardSide::after);
  std::set<std::uint32_t> words;
  for (std::size_t k = 0; k < kGuardBytes / 4; ++k) words.insert(word(canary, k));
  EXPECT_EQ(words.size(), kGuardBytes / 4) << "a repeated word";
  EXPECT_EQ(words.count(0u), 0u);
}

TEST(GuardRegion, AnUntouchedGuardHasNoDamage) {
  const auto canary = canary_bytes(0, GuardSide::after);
  EXPECT_FALSE(find_guard_damage(canary.data(), canary.data(), kGuardBytes));
}

// 64 floats written at the start of the after-guard: every byte differs.
TEST(GuardRegion, SixtyFourFloatsPastTheEndAreFoundWithTheirCount) {
  const auto canary = canary_bytes(0, GuardSide::after);
  auto guard = canary;
  for (std::size_t i = 0; i < 64 * sizeof(float); ++i) guard[i] = ~canary[i];
  const auto damage = find_guard_damage(guard.data(), canary.data(), kGuardBytes);
  ASSERT_TRUE(damage);
  EXPECT_EQ(damage->first, 0u);
  EXPECT_EQ(damage->changed, 256u);
}

TEST(GuardRegion, TheFirstChangedByteIsTheLowestAddress) {
  const auto canary = canary_bytes(3, GuardSide::before);
  auto guard = canary;
  guard[1000] ^= 0x01;
  guard[3000] ^= 0x80;
  const auto damage = find_guard_damage(guard.data(), canary.data(), kGuardBytes);
  ASSERT_TRUE(damage);
  EXPECT_EQ(damage->first, 1000u);
  EXPECT_EQ(damage->changed, 2u);
}

TEST(OutOfBoundsWrite, PastTheEndNamesTheBufferSideAndFirstElementBeyondIt) {
  const ArgDesc out = buffer("out", ElementType::f32, 1001);
  const Verdict v = out_of_bounds_write(out, GuardSide::after, GuardDamage{0, 256});
  ASSERT_FALSE(v.passed);
  EXPECT_EQ(v.reason, "out_of_bounds_write");
  EXPECT_EQ(v.detail["buffer"], "out");
  EXPECT_EQ(v.detail["side"], "after");
  EXPECT_EQ(v.detail["offset_bytes"].get<std::int64_t>(), 4004);
  EXPECT_EQ(v.detail["index"].get<std::int64_t>(), 1001);
  EXPECT_EQ(v.detail["bytes_changed"].get<std::size_t>(), 256u);
  EXPECT_EQ(v.detail["guard_bytes"].get<std::size_t>(), kGuardBytes);
  EXPECT_THAT(v.message, HasSubstr("past the end of `out` (1001 elements)"));
  EXPECT_THAT(v.message, HasSubstr("256 bytes of the 4096-byte guard after it changed"));
  EXPECT_THAT(v.message, HasSubstr("byte offset 4004 from its start (element 1001)"));
}

// A byte inside an element past the end still names that element.
TEST(OutOfBoundsWrite, AByteInsideAnElementNamesThatElement) {
  const ArgDesc out = buffer("acc", ElementType::f64, 10);
  const Verdict v = out_of_bounds_write(out, GuardSide::after, GuardDamage{13, 1});
  EXPECT_EQ(v.detail["offset_bytes"].get<std::int64_t>(), 93);
  EXPECT_EQ(v.detail["index"].get<std::int64_t>(), 11);
}

// Before the start, offsets are negative and elements round down: the byte
// just before the buffer lies in element -1, and 64 floats back is element -64.
TEST(OutOfBoundsWrite, BeforeTheStartHasNegativeOffsets) {
  const ArgDesc in = buffer("in", ElementType::f32, 1048576);
  Verdict v = out_of_bounds_write(in, GuardSide::before, GuardDamage{kGuardBytes - 256, 256});
  EXPECT_EQ(v.detail["side"], "before");
  EXPECT_EQ(v.detail["offset_bytes"].get<std::int64_t>(), -256);
  EXPECT_EQ(v.detail["index"].get<std::int64_t>(), -64);
  EXPECT_THAT(v.message, HasSubstr("before the start of `in`"));
  v = out_of_bounds_write(in, GuardSide::before, GuardDamage{kGuardBytes - 1, 1});
  EXPECT_EQ(v.detail["offset_bytes"].get<std::int64_t>(), -1);
  EXPECT_EQ(v.detail["index"].get<std::int64_t>(), -1);
}

}  // namespace
}  // namespace kblaster::harness
