// Finding ncu, its command line, and reading why a run left no profile.
#include "gpu/ncu.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <map>

#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;

auto env_of(std::map<std::string, std::string> vars) {
  return [vars](const std::string& n) -> std::optional<std::string> {
    auto it = vars.find(n);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

TEST(FindNcu, TakesKblasterNcuThenPath) {
  testing::TempDir dir;
  const auto ncu = dir.write("bin/ncu", "#!/bin/sh\n");
  ::chmod(ncu.c_str(), 0755);
  auto on_path = find_ncu(env_of({{"PATH", "/nonexistent:" + ncu.parent_path().string()}}));
  ASSERT_TRUE(on_path.ok()) << on_path.error().message;
  EXPECT_EQ(on_path->path, ncu);
  auto given = find_ncu(env_of({{"KBLASTER_NCU", ncu.string()}, {"PATH", "/nonexistent"}}));
  ASSERT_TRUE(given.ok());
  EXPECT_EQ(given->path, ncu);
}

TEST(FindNcu, ANonExecutableOrMissingNcuSaysWhereItLooked) {
  testing::TempDir dir;
  const auto text = dir.write("ncu", "not a program\n");
  auto bad = find_ncu(env_of({{"KBLASTER_NCU", text.string()}}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::environment);
  EXPECT_THAT(bad.error().message, HasSubstr("$KBLASTER_NCU is " + text.string()));
  auto none = find_ncu(env_of({{"PATH", dir.path().string() + "/empty"}}));
  if (none.ok()) GTEST_SKIP() << "this machine has " << none->path.string();
  EXPECT_THAT(none.error().message,
              HasSubstr("ncu) not found; looked in $KBLASTER_NCU (unset), PATH"));
}

TEST(NcuCommand, ProfilesOnlyTheKblasterRangeWithClocksLeftAlone) {
  const auto argv = ncu_command({"/opt/ncu"}, "/x/kblaster-harness", "/tmp/p.csv",
                                NcuMetrics::kblaster_list, {"a.sum", "b.avg"});
  const std::vector<std::string> want = {"/opt/ncu",
                                         "--csv",
                                         "--clock-control",
                                         "none",
                                         "--nvtx",
                                         "--nvtx-include",
                                         "kblaster/",
                                         "--page",
                                         "raw",
                                         "--metrics",
                                         "a.sum,b.avg",
                                         "--log-file",
                                         "/tmp/p.csv",
                                         "/x/kblaster-harness"};
  EXPECT_EQ(argv, want);
  const auto full =
      ncu_command({"/opt/ncu"}, "/x/h", "/tmp/f.csv", NcuMetrics::full_set, {"ignored"});
  EXPECT_THAT(full, ::testing::Contains("full"));
  EXPECT_THAT(full, ::testing::Not(::testing::Contains("--metrics")));
}

TEST(NcuLogProblem, NamesRefusedCountersAndErrorsAndEmptyRuns) {
  EXPECT_THAT(*ncu_log_problem("==PROF== Connected\n==ERROR== ERR_NVGPUCTRPERM - The user does "
                               "not have permission to access NVIDIA GPU Performance Counters\n"),
              HasSubstr("not accessible to this user (ERR_NVGPUCTRPERM)"));
  EXPECT_EQ(*ncu_log_problem("==PROF== x\n==ERROR== Failed to profile \"k\" in process 7\n"),
            "==ERROR== Failed to profile \"k\" in process 7");
  EXPECT_THAT(*ncu_log_problem("==PROF== Disconnected\n==WARNING== No kernels were profiled.\n"),
              HasSubstr("profiled no kernel"));
  EXPECT_FALSE(ncu_log_problem("==PROF== x\n\"ID\",\"Kernel Name\"\n\"0\",\"k\"\n").has_value());
}

}  // namespace
}  // namespace kblaster
