// The harness's memo of reference outputs: found by key, least recently used dropped first,
// and never over its budget (issue 22, point 9).
#include "reference_memo.h"

#include <gtest/gtest.h>

namespace kblaster::harness {
namespace {

MemoOutputs outputs(std::size_t bytes, unsigned char fill) {
  return {std::vector<unsigned char>(bytes, fill)};
}

TEST(ReferenceMemo, KeepsOutputsByKeyAndDropsTheLeastRecentlyUsedToStayInBudget) {
  ReferenceMemo memo(300);
  EXPECT_EQ(memo.find("a"), nullptr);
  memo.insert("a", outputs(100, 1));
  memo.insert("b", outputs(100, 2));
  memo.insert("c", outputs(100, 3));
  EXPECT_EQ(memo.bytes(), 300u);
  ASSERT_NE(memo.find("a"), nullptr);  // now the most recently used
  memo.insert("d", outputs(100, 4));   // drops b, the least recently used
  EXPECT_EQ(memo.find("b"), nullptr);
  ASSERT_NE(memo.find("a"), nullptr);
  EXPECT_EQ(memo.find("a")->at(0).at(0), 1);
  EXPECT_EQ(memo.find("d")->at(0).at(99), 4);
  EXPECT_EQ(memo.entries(), 3u);
  EXPECT_LE(memo.bytes(), 300u);
}

TEST(ReferenceMemo, OutputsOverTheBudgetAreNotKeptAndAKeyKeptAgainIsReplaced) {
  ReferenceMemo memo(300);
  memo.insert("small", outputs(50, 1));
  memo.insert("huge", outputs(301, 2));
  EXPECT_EQ(memo.find("huge"), nullptr);
  ASSERT_NE(memo.find("small"), nullptr) << "nothing dropped for what cannot be kept";
  memo.insert("small", outputs(60, 9));
  EXPECT_EQ(memo.entries(), 1u);
  EXPECT_EQ(memo.bytes(), 60u);
  EXPECT_EQ(memo.find("small")->at(0).size(), 60u);
}

TEST(ReferenceMemo, TheBudgetIsAQuarterOfMemoryAtMost16GiB) {
  const std::size_t budget = reference_memo_budget();
  EXPECT_GT(budget, 0u);
  EXPECT_LE(budget, std::size_t{16} << 30);
}

// The workload's key: a tunable's value is left out (the reference never sees it), but its
// place is kept, since each input is filled by its position among all the arguments.
TEST(ReferenceWorkloadKey, ATunablesValueIsLeftOutButItsPlaceIsKept) {
  using nlohmann::json;
  const json x = {{"name", "x"}, {"type", "f32"}, {"role", "in"}, {"elements", 8}};
  const json block = {{"name", "block"}, {"type", "i32"}, {"to_reference", false}};
  const json n = {{"name", "n"}, {"type", "i32"}};
  auto with = [](json a, int value) {
    a["value"] = value;
    return a;
  };
  auto key = [](std::vector<json> args) { return reference_workload_key(json(std::move(args))); };
  EXPECT_EQ(key({x, with(block, 128)}), key({x, with(block, 256)}));
  EXPECT_NE(key({x, with(block, 128)}), key({with(block, 128), x})) << "x is filled as argument 1";
  EXPECT_NE(key({x, with(block, 128)}), key({x})) << "the same x, another workload";
  EXPECT_NE(key({x, with(n, 8)}), key({x, with(n, 9)})) << "a value the reference sees counts";
}

}  // namespace
}  // namespace kblaster::harness
