// `requires` conditions: parsed, evaluated, and said with the values that broke them.
#include "core/precondition.h"

#include <gtest/gtest.h>

namespace kblaster {
namespace {

bool holds(const std::string& text, const std::map<std::string, std::int64_t>& scalars) {
  auto p = Precondition::parse(text);
  EXPECT_TRUE(p.ok()) << p.error().message;
  auto ok = p->holds(scalars);
  EXPECT_TRUE(ok.ok()) << ok.error().message;
  return *ok;
}

TEST(Precondition, EachComparisonHoldsOrNot) {
  EXPECT_TRUE(holds("C % 4 == 0", {{"C", 1024}}));
  EXPECT_FALSE(holds("C % 4 == 0", {{"C", 1001}}));
  EXPECT_TRUE(holds("C >= block_size", {{"C", 768}, {"block_size", 768}}));
  EXPECT_FALSE(holds("C >= block_size", {{"C", 768}, {"block_size", 1024}}));
  EXPECT_TRUE(holds("N != 0", {{"N", 3}}));
  EXPECT_TRUE(holds("N*2 < 10", {{"N", 4}}));
  EXPECT_FALSE(holds("N*2 <= 7", {{"N", 4}}));
  EXPECT_TRUE(holds("(N + 1) / 2 >= 2", {{"N", 4}})) << "integer division, as in shapes";
  EXPECT_FALSE(holds("(N + 1) / 2 > 2", {{"N", 4}}));
}

TEST(Precondition, TextThatIsNotOneComparisonIsAnError) {
  auto none = Precondition::parse("C % 4");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message,
            "`C % 4` compares nothing; write one of == != < <= > >=, as in `C % 4 == 0`");
  auto two = Precondition::parse("0 < C < 8");
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.error().message,
            "`0 < C < 8` has more than one comparison; give each its own entry");
  // A PR's config controls the text: a long one is quoted in part, not copied whole.
  const std::string hostile = std::string(100'000, 'C') + " % 4";
  auto long_one = Precondition::parse(hostile);
  ASSERT_FALSE(long_one.ok());
  EXPECT_LT(long_one.error().message.size(), 1'200u) << long_one.error().message.size();
  auto bad = Precondition::parse("C % == 0");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("left of the comparison"), std::string::npos)
      << bad.error().message;
}

TEST(Precondition, TheFirstBrokenOneIsSaidWithItsValues) {
  std::vector<Precondition> ps;
  for (const char* t : {"C % 4 == 0", "C >= block_size"}) ps.push_back(*Precondition::parse(t));
  EXPECT_EQ(first_broken(ps, {{"C", 1024}, {"block_size", 256}}), std::nullopt);
  EXPECT_EQ(first_broken(ps, {{"C", 1022}, {"block_size", 256}}), "`C % 4 == 0` (C=1022)");
  EXPECT_EQ(first_broken(ps, {{"C", 768}, {"block_size", 1024}}),
            "`C >= block_size` (C=768, block_size=1024)");
  EXPECT_EQ(first_broken(ps, {{"C", 0}, {"block_size", 0}}), std::nullopt);
  std::vector<Precondition> divides{*Precondition::parse("N / D == 1")};
  EXPECT_NE(first_broken(divides, {{"N", 1}, {"D", 0}})->find("division by zero"),
            std::string::npos)
      << "one that cannot be evaluated does not hold";
}

}  // namespace
}  // namespace kblaster
