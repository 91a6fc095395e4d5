// `kblaster kb …` through the real binary, on a real SQLite file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "kb/store.h"
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
  EXPECT_EQ(nlohmann::json::parse(again.out)["techniques"], j["techniques"])
      << "seeding is idempotent";

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
  EXPECT_GE(best[0]["expected_log_speedup"].get<double>(),
            best[2]["expected_log_speedup"].get<double>());

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

TEST(KbCli, StatsShowTheBestKnownTechniquesAndRecentLessons) {
  testing::TempDir repo;
  ASSERT_EQ(run_kblaster({"kb", "init", repo.path().string()}).exit_code, 0);
  {
    auto store = Store::open(repo.path() / ".kblaster" / "kb.sqlite");
    ASSERT_TRUE(store.ok()) << store.error().describe();
    Trajectory t{"t1", "softmax", "sm_90", 100, {}};
    for (int i = 0; i < 3; ++i)
      t.steps.push_back(
          {i, "memory.dram_saturated", "vectorized_access", StepOutcome::faster, 0.2, 0});
    ASSERT_TRUE(store->record_trajectory(t).ok());
    ASSERT_TRUE(store
                    ->add_lesson({"", "memory.dram_saturated", "vectorized_access",
                                  "float4 loads cut the load instructions by 4x", 101})
                    .ok());
  }
  auto r = run_kblaster({"kb", "stats", repo.path().string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["most_evidence"].size(), 1u);
  EXPECT_EQ(j["most_evidence"][0]["technique"], "vectorized_access");
  EXPECT_EQ(j["most_evidence"][0]["measured"], 3);
  EXPECT_NEAR(j["most_evidence"][0]["mean_log_speedup"].get<double>(), 0.2, 1e-12);
  ASSERT_EQ(j["recent_lessons"].size(), 1u);
  EXPECT_EQ(j["recent_lessons"][0]["text"], "float4 loads cut the load instructions by 4x");

  auto text = run_kblaster({"kb", "stats", repo.path().string()});
  EXPECT_THAT(text.out,
              HasSubstr("memory.dram_saturated  vectorized_access  sm_90: 3 of 3, +22.1%"));
  EXPECT_THAT(text.out, HasSubstr("recent lessons:"));

  auto show = run_kblaster({"kb", "show", repo.path().string(), "--state", "memory.dram_saturated",
                            "--top", "100", "--json"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  bool exact = false;
  const auto shown = nlohmann::json::parse(show.out);
  for (const auto& b : shown["states"][0]["best"])
    exact = exact || (b["technique"] == "vectorized_access" && b["source"] == "exact");
  EXPECT_TRUE(exact) << show.out;

  // A sibling state borrows those three steps, and says none of them was made there.
  auto sibling = run_kblaster({"kb", "show", repo.path().string(), "--state", "memory.l2_bound"});
  ASSERT_EQ(sibling.exit_code, 0) << sibling.err;
  EXPECT_THAT(sibling.out, HasSubstr("vectorized_access"));
  EXPECT_THAT(sibling.out,
              HasSubstr("from similar_state (3 measured of 3 attempts, 0 in this state on sm_90)"));
  auto sibling_json = run_kblaster(
      {"kb", "show", repo.path().string(), "--state", "memory.l2_bound", "--top", "100", "--json"});
  ASSERT_EQ(sibling_json.exit_code, 0) << sibling_json.err;
  bool borrowed = false;
  const auto sibling_shown = nlohmann::json::parse(sibling_json.out);
  for (const auto& b : sibling_shown["states"][0]["best"])
    if (b["technique"] == "vectorized_access")
      borrowed = b["attempts"] == 3 && b["attempts_here"] == 0;
  EXPECT_TRUE(borrowed) << sibling_json.out;
}

TEST(KbCli, KbNeedsASubcommand) { EXPECT_EQ(run_kblaster({"kb"}).exit_code, 2); }

}  // namespace
}  // namespace kblaster
