// `kblaster kb …` through the real binary, on a real SQLite file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "test_paths.h"

namespace kblaster {
namespace {

using ::testing::HasSubstr;
using testing::run_kblaster;

TEST(KbCli, InitCreatesTheKbAndLoadsTheSeedCatalogueOnce) {
  testing::TempDir repo;
  auto init = run_kblaster({"kb", "init", repo.path().string(), "--json"});
  ASSERT_EQ(init.exit_code, 0) << init.err;
  auto j = nlohmann::json::parse(init.out);
  EXPECT_GE(j["techniques"].get<int>(), 30);
  EXPECT_GE(j["states"].get<int>(), 12);
  EXPECT_EQ(j["trajectories"], 0);
  EXPECT_TRUE(std::filesystem::exists(repo.path() / ".kblaster" / "kb.sqlite"));

  auto again = run_kblaster({"kb", "init", repo.path().string(), "--json"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["techniques"], j["techniques"]) << "seeding is idempotent";

  auto stats = run_kblaster({"kb", "stats", repo.path().string()});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_THAT(stats.out, HasSubstr("(schema v2)"));
  EXPECT_THAT(stats.out, HasSubstr("0 trajectories"));
}

TEST(KbCli, AMissingCatalogueIsAnEnvironmentErrorNamingWhereItLooked) {
  testing::TempDir repo;
  auto r = run_kblaster({"kb", "init", repo.path().string(), "--catalogue", "/no/such/dir"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.err, HasSubstr("/no/such/dir"));
}

TEST(KbCli, ShowRanksTechniquesPerStateWithTheirSource) {
  testing::TempDir repo;
  ASSERT_EQ(run_kblaster({"kb", "init", repo.path().string()}).exit_code, 0);
  auto r = run_kblaster({"kb", "show", repo.path().string(), "--state", "memory.dram_saturated",
                         "--top", "3", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["states"].size(), 1u);
  const auto& best = j["states"][0]["best"];
  ASSERT_EQ(best.size(), 3u);
  EXPECT_EQ(best[0]["source"], "prior") << "an empty KB knows only the catalogue's priors";
  EXPECT_GE(best[0]["expected_log_speedup"].get<double>(), best[2]["expected_log_speedup"].get<double>());

  auto unknown = run_kblaster({"kb", "show", repo.path().string(), "--state", "memory.nope"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("not a state of the catalogue"));
}

TEST(KbCli, ExportImportRoundTripsAndMergeIsIdempotent) {
  testing::TempDir a, b, work;
  ASSERT_EQ(run_kblaster({"kb", "init", a.path().string()}).exit_code, 0);
  const auto exported = work.path() / "a.json";
  auto out = run_kblaster({"kb", "export", a.path().string(), "--out", exported.string()});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  auto in = run_kblaster({"kb", "import", b.path().string(), "--from", exported.string()});
  ASSERT_EQ(in.exit_code, 0) << in.err;
  auto again = run_kblaster({"kb", "export", b.path().string()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  auto first = run_kblaster({"kb", "export", a.path().string()});
  EXPECT_EQ(again.out, first.out) << "import(export(kb)) exports the same bytes";

  auto into_full = run_kblaster({"kb", "import", a.path().string(), "--from", exported.string()});
  EXPECT_EQ(into_full.exit_code, 2) << "import needs an empty KB";

  const auto kb_a = (a.path() / ".kblaster" / "kb.sqlite").string();
  auto merged = run_kblaster({"kb", "merge", b.path().string(), "--from", kb_a, "--json"});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(run_kblaster({"kb", "export", b.path().string()}).out, first.out)
      << "merging a KB with its own copy changes nothing";
}

TEST(KbCli, KbNeedsASubcommand) { EXPECT_EQ(run_kblaster({"kb"}).exit_code, 2); }

}  // namespace
}  // namespace kblaster
