// Shards of a sweep: parsing K/N, the environment's shard (Slurm arrays, Kubernetes Indexed
// Jobs, KBLASTER_SHARD), and a split that takes every kernel exactly once, balanced by cost.
#include "eval/shard.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <numeric>
#include <set>

namespace kblaster {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

EnvironmentLookup env(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(Shard, ParsesKOfNAndRefusesWhatIsNoShard) {
  auto s = parse_shard("2/4", "--shard");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 4);
  for (const char* bad : {"0/4", "5/4", "4", "a/b", "1/0", "1/4x", "-1/4", "1/5000", ""}) {
    auto r = parse_shard(bad, "--shard");
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().kind, ErrorKind::usage);
    EXPECT_THAT(r.error().message, HasSubstr("--shard: `" + std::string(bad) + "` is no shard"));
  }
}

TEST(Shard, TheEnvironmentNamesItAsEachSchedulerDoes) {
  auto none = shard_from_environment(env({}));
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  auto named = shard_from_environment(env({{"KBLASTER_SHARD", "3/8"}}));
  ASSERT_TRUE(named.ok() && named->has_value());
  EXPECT_EQ((*named)->index, 3);
  // sbatch --array=0-3: ids 0..3; --array=1-4: ids 1..4 with SLURM_ARRAY_TASK_MIN=1.
  auto slurm =
      shard_from_environment(env({{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}));
  ASSERT_TRUE(slurm.ok() && slurm->has_value());
  EXPECT_EQ((*slurm)->index, 1);
  EXPECT_EQ((*slurm)->count, 4);
  auto from_one = shard_from_environment(env({{"SLURM_ARRAY_TASK_ID", "4"},
                                              {"SLURM_ARRAY_TASK_COUNT", "4"},
                                              {"SLURM_ARRAY_TASK_MIN", "1"}}));
  ASSERT_TRUE(from_one.ok() && from_one->has_value());
  EXPECT_EQ((*from_one)->index, 4);
  auto k8s =
      shard_from_environment(env({{"JOB_COMPLETION_INDEX", "5"}, {"KBLASTER_SHARD_COUNT", "6"}}));
  ASSERT_TRUE(k8s.ok() && k8s->has_value());
  EXPECT_EQ((*k8s)->index, 6);
  // Unusable settings name the variable.
  auto no_count = shard_from_environment(env({{"JOB_COMPLETION_INDEX", "0"}}));
  ASSERT_FALSE(no_count.ok());
  EXPECT_THAT(no_count.error().message, HasSubstr("KBLASTER_SHARD_COUNT is not"));
  auto junk = shard_from_environment(env({{"SLURM_ARRAY_TASK_ID", "x"}}));
  ASSERT_FALSE(junk.ok());
  EXPECT_THAT(junk.error().message, HasSubstr("SLURM_ARRAY_TASK_ID=`x` is not an integer"));
  auto past =
      shard_from_environment(env({{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}));
  EXPECT_FALSE(past.ok()) << "ids from 0: 4 is a fifth task of four";
}

TEST(Shard, EveryKernelLandsInExactlyOneShardWhateverTheOrderGiven) {
  std::vector<std::string> names;
  for (int i = 0; i < 23; ++i) names.push_back("k" + std::to_string(i));
  const std::map<std::string, double> cost = {{"k3", 40}, {"k7", 5}, {"k11", 12}};
  for (int n : {1, 2, 3, 7, 23, 30}) {
    std::multiset<std::string> all;
    for (int k = 1; k <= n; ++k) {
      auto reversed = names;
      std::reverse(reversed.begin(), reversed.end());
      const auto mine = shard_kernels(names, cost, {k, n});
      EXPECT_EQ(shard_kernels(reversed, cost, {k, n}), mine) << "the order given does not matter";
      all.insert(mine.begin(), mine.end());
    }
    EXPECT_EQ(all, std::multiset<std::string>(names.begin(), names.end())) << n << " shards";
  }
}

TEST(Shard, CostsBalanceTheShardsAndNoCostsSplitEvenly) {
  // One long kernel and six short ones over two shards: the long one alone on one side.
  const std::map<std::string, double> cost = {{"long", 60}, {"a", 10}, {"b", 10}, {"c", 10},
                                              {"d", 10},    {"e", 10}, {"f", 10}};
  std::vector<std::string> names = {"a", "b", "c", "d", "e", "f", "long"};
  EXPECT_THAT(shard_kernels(names, cost, {1, 2}), ElementsAre("long"));
  EXPECT_THAT(shard_kernels(names, cost, {2, 2}), ElementsAre("a", "b", "c", "d", "e", "f"));
  // Without costs: 7 kernels over 3 shards take 3, 2 and 2.
  std::vector<std::size_t> sizes;
  for (int k = 1; k <= 3; ++k) sizes.push_back(shard_kernels(names, {}, {k, 3}).size());
  EXPECT_THAT(sizes, ElementsAre(3u, 2u, 2u));
  // A kernel with no figure counts as the median of the known: here 10.
  const std::map<std::string, double> partial = {{"long", 60}, {"a", 10}, {"b", 10}};
  EXPECT_THAT(shard_kernels(names, partial, {1, 2}), ElementsAre("long"));
}

}  // namespace
}  // namespace kblaster
