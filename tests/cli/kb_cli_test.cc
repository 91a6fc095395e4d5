// `kblaster kb …` through the real binary, on a real SQLite file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_run.h"
#include "kb/sqlite.h"
#include "kb/store.h"
#include "result_schema.h"
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
  EXPECT_EQ(j["kind"], "kb_stats") << "init says what the KB holds, as kb stats does";
  EXPECT_TRUE(testing::is_valid_result(j, "kb_stats", repo));

  auto again = run_kblaster({"kb", "init", repo.path().string(), "--json"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["techniques"], j["techniques"])
      << "seeding is idempotent";

  auto stats = run_kblaster({"kb", "stats", repo.path().string()});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_THAT(stats.out, HasSubstr("(schema v3)"));
  EXPECT_THAT(stats.out, HasSubstr("0 trajectories"));
}

// A catalogue the user named is a usage error naming the flag; the default
// one missing (an install without kb/catalogue) is the environment's.
// Issue 22, point 10: options that repeat take one value each, so the repository written after
// them is the repository, not a third KB file (merge) or a kernel name (--kernel).
TEST(KbCli, TheRepositoryAfterRepeatedFromsIsTheRepository) {
  testing::TempDir repo, a, b;
  for (const auto* dir : {&a, &b})
    ASSERT_EQ(run_kblaster({"kb", "init", dir->path().string()}).exit_code, 0);
  auto merge = run_kblaster(
      {"kb", "merge", "--from", (a.path() / ".kblaster" / "kb.sqlite").string(), "--from",
       (b.path() / ".kblaster" / "kb.sqlite").string(), repo.path().string()});
  EXPECT_EQ(merge.exit_code, 0) << merge.err;
  EXPECT_TRUE(std::filesystem::exists(repo.path() / ".kblaster" / "kb.sqlite"))
      << "the merge went into the repository's KB";

  auto plan = run_kblaster({"plan", "--kernel", "axpy", "examples/kernels"});
  EXPECT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_THAT(plan.out, ::testing::HasSubstr("axpy"));
}

TEST(KbCli, AMissingCatalogueNamesWhereItLooked) {
  testing::TempDir repo;
  auto r = run_kblaster({"kb", "init", repo.path().string(), "--catalogue", "/no/such/dir"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--catalogue /no/such/dir: not a seed catalogue"));

  ASSERT_EQ(::setenv("KBLASTER_CATALOGUE", "/no/such/env/dir", 1), 0);
  auto from_env = run_kblaster({"kb", "init", repo.path().string()});
  ::unsetenv("KBLASTER_CATALOGUE");
  EXPECT_EQ(from_env.exit_code, 3);
  EXPECT_THAT(from_env.err, HasSubstr("the seed catalogue is not in /no/such/env/dir"));
  EXPECT_FALSE(std::filesystem::exists(repo.path() / ".kblaster" / "kb.sqlite"))
      << "a failed init leaves no KB behind";
}

// The whole file, for comparing before and after.
std::string bytes_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A seeded KB switched to rollback-journal mode: opening it with Store::open
// (which sets WAL) would change its header, so any write shows in its bytes.
std::filesystem::path journal_mode_kb(const testing::TempDir& repo) {
  EXPECT_EQ(run_kblaster({"kb", "init", repo.path().string()}).exit_code, 0);
  const auto path = repo.path() / ".kblaster" / "kb.sqlite";
  auto db = Database::open(path);
  EXPECT_TRUE(db.ok());
  if (db.ok()) {
    EXPECT_TRUE(db->exec("PRAGMA journal_mode=DELETE").ok());
  }
  return path;
}

TEST(KbCli, ReadingAKbLeavesItsFileAsItWas) {
  testing::TempDir repo;
  const auto path = journal_mode_kb(repo);
  const std::string before = bytes_of(path);
  ASSERT_FALSE(before.empty());
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"kb", "stats", repo.path().string()},
        {"kb", "show", repo.path().string(), "--state", "memory.dram_saturated"},
        {"kb", "export", repo.path().string()}}) {
    auto r = run_kblaster(args);
    EXPECT_EQ(r.exit_code, 0) << args[1] << ": " << r.err;
    EXPECT_EQ(bytes_of(path), before) << args[1] << " changed the KB it only reads";
  }
}

TEST(KbCli, ReadingAMissingKbIsAUsageErrorThatCreatesNothing) {
  testing::TempDir repo;
  auto stats = run_kblaster({"kb", "stats", repo.path().string()});
  EXPECT_EQ(stats.exit_code, 2);
  EXPECT_THAT(stats.err, HasSubstr("no KB at " + (repo.path() / ".kblaster/kb.sqlite").string()));
  EXPECT_THAT(stats.err, HasSubstr("`kblaster kb init` creates one"));
  EXPECT_FALSE(std::filesystem::exists(repo.path() / ".kblaster"));

  const auto typo = repo.path() / "no-such-repo";
  auto show = run_kblaster({"kb", "show", typo.string(), "--state", "memory.dram_saturated"});
  EXPECT_EQ(show.exit_code, 2);
  EXPECT_THAT(show.err, HasSubstr("REPO " + typo.string() + " is not a directory"));
  auto import = run_kblaster({"kb", "import", typo.string(), "--from", "x.json"});
  EXPECT_EQ(import.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(typo));

  auto no_json = run_kblaster(
      {"kb", "import", repo.path().string(), "--from", (repo.path() / "missing.json").string()});
  EXPECT_EQ(no_json.exit_code, 2);
  EXPECT_THAT(no_json.err, HasSubstr("--from " + (repo.path() / "missing.json").string()));
  EXPECT_FALSE(std::filesystem::exists(repo.path() / ".kblaster"))
      << "a failed import leaves no KB behind";
}

TEST(KbCli, AFileThatIsNoKbIsAUsageErrorAndStaysAsItWas) {
  testing::TempDir dir;
  const auto text = dir.path() / "notes.json";
  std::ofstream(text) << "{\"not\": \"a KB\"}\n";
  for (const char* command : {"stats", "merge"}) {
    std::vector<std::string> args = {"kb", command, "--kb", text.string()};
    if (std::string(command) == "merge")
      args = {"kb", "merge", dir.path().string(), "--from", text.string()};
    auto r = run_kblaster(args);
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(text.string()));
    EXPECT_THAT(r.err, HasSubstr("is not a KB: it is not an SQLite database"));
  }
  EXPECT_EQ(bytes_of(text), "{\"not\": \"a KB\"}\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / ".kblaster"))
      << "a merge whose input is no KB creates no target";

  const auto empty = dir.path() / "empty.sqlite";
  std::ofstream{empty};
  auto merge = run_kblaster({"kb", "merge", dir.path().string(), "--from", empty.string()});
  EXPECT_EQ(merge.exit_code, 2);
  EXPECT_THAT(merge.err, HasSubstr("(the file is empty)"));
  EXPECT_EQ(std::filesystem::file_size(empty), 0u) << "no schema was written into the input";
}

// Every input is read before the target is opened: a broken JSON, a damaged
// KB or a FIFO fails the command without leaving a new KB or half a merge.
TEST(KbCli, AFailedImportOrMergeLeavesNoNewKbAndNoHalfMerge) {
  testing::TempDir dir, good_repo;
  const auto kb = dir.path() / ".kblaster" / "kb.sqlite";
  const auto broken_json = dir.path() / "broken.json";
  std::ofstream(broken_json) << "{oops";
  auto import = run_kblaster({"kb", "import", dir.path().string(), "--from", broken_json.string()});
  EXPECT_EQ(import.exit_code, 2) << import.err;
  EXPECT_THAT(import.err, HasSubstr("--from " + broken_json.string() + ": not JSON"));
  EXPECT_FALSE(std::filesystem::exists(kb)) << "a failed import leaves no KB behind";

  ASSERT_EQ(run_kblaster({"kb", "init", good_repo.path().string()}).exit_code, 0);
  const auto good = good_repo.path() / ".kblaster" / "kb.sqlite";
  const auto damaged = dir.path() / "damaged.sqlite";
  std::ofstream(damaged, std::ios::binary)
      << std::string("SQLite format 3\0", 16) << std::string(4096, 'x');
  auto merge = run_kblaster(
      {"kb", "merge", dir.path().string(), "--from", good.string(), "--from", damaged.string()});
  EXPECT_EQ(merge.exit_code, 3) << merge.err;
  EXPECT_THAT(merge.err, HasSubstr(damaged.string()));
  EXPECT_FALSE(std::filesystem::exists(kb)) << "no target was created, and so no half merge";

  const auto fifo = dir.path() / "fifo.sqlite";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto stats = run_kblaster({"kb", "stats", "--kb", fifo.string()});
  EXPECT_EQ(stats.exit_code, 2) << "a FIFO is refused, not read (which would block)";
  EXPECT_THAT(stats.err, HasSubstr("is not a regular file"));
}

TEST(KbCli, MergeLeavesItsInputsAsTheyWere) {
  testing::TempDir source_repo, target;
  const auto source = journal_mode_kb(source_repo);
  const std::string before = bytes_of(source);
  auto merged = run_kblaster({"kb", "merge", target.path().string(), "--from", source.string()});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_THAT(merged.err, HasSubstr("merged " + source.string() + " into "));
  EXPECT_EQ(bytes_of(source), before);
  EXPECT_EQ(run_kblaster({"kb", "export", target.path().string()}).out,
            run_kblaster({"kb", "export", source_repo.path().string()}).out);

  // A WAL-mode input (as `kb init` makes) gets no -wal or -shm file left beside it.
  testing::TempDir wal_repo;
  ASSERT_EQ(run_kblaster({"kb", "init", wal_repo.path().string()}).exit_code, 0);
  const auto wal_source = wal_repo.path() / ".kblaster" / "kb.sqlite";
  ASSERT_FALSE(std::filesystem::exists(wal_source.string() + "-wal"));
  ASSERT_EQ(run_kblaster({"kb", "merge", target.path().string(), "--from", wal_source.string()})
                .exit_code,
            0);
  for (const char* suffix : {"-wal", "-shm"})
    EXPECT_FALSE(std::filesystem::exists(wal_source.string() + suffix)) << suffix;
}

// Runs kblaster with `args` and expects a usage error (exit 2) whose message holds `text`.
void expect_usage_error(const std::vector<std::string>& args, const std::string& text) {
  auto r = run_kblaster(args);
  EXPECT_EQ(r.exit_code, 2) << args.at(1) << ": " << r.err;
  EXPECT_THAT(r.err, HasSubstr(text)) << args.at(1);
}

TEST(KbCli, FlagsThatMeanNothingHereOrAreOutOfRangeAreUsageErrors) {
  testing::TempDir repo;
  const std::string r = repo.path().string();
  ASSERT_EQ(run_kblaster({"kb", "init", r}).exit_code, 0);
  expect_usage_error({"kb", "stats", r, "--kernel", "softmax"},
                     "--kernel: the kb commands work on the whole KB");
  expect_usage_error({"kb", "show", r, "--top", "0"}, "--top");
  expect_usage_error({"kb", "show", r, "--arch", "hopper"}, "`hopper` is not a GPU architecture");
  expect_usage_error({"kb", "show", r, "--state", "memory.dram_saturate"},
                     "did you mean `memory.dram_saturated`?");
  expect_usage_error({"kb", "show", r, "--state", "memory.dram_saturate"}, "(the states: ");
}

TEST(KbCli, AnUnwritableExportIsTheEnvironmentsProblemAndNamesTheFlag) {
  testing::TempDir repo;
  ASSERT_EQ(run_kblaster({"kb", "init", repo.path().string()}).exit_code, 0);
  auto r = run_kblaster({"kb", "export", repo.path().string(), "--out", "/no/such/dir/kb.json"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_THAT(r.err, HasSubstr("--out /no/such/dir/kb.json: cannot write"));
}

TEST(KbCli, ShowRanksTechniquesPerStateWithTheirSource) {
  testing::TempDir repo;
  ASSERT_EQ(run_kblaster({"kb", "init", repo.path().string()}).exit_code, 0);
  auto r = run_kblaster({"kb", "show", repo.path().string(), "--state", "memory.dram_saturated",
                         "--top", "3", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  testing::TempDir dir;
  EXPECT_TRUE(testing::is_valid_result(j, "kb_show", dir));
  EXPECT_EQ(j["state"], "memory.dram_saturated");
  EXPECT_EQ(j["top"], 3);
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
  EXPECT_EQ(j["kind"], "kb_stats");
  EXPECT_EQ(j["kb_schema_version"], 3) << "the KB file's schema, beside the result's";
  EXPECT_EQ(j["provenance"]["command_line"][2], "stats");
  testing::TempDir dir;
  EXPECT_TRUE(testing::is_valid_result(j, "kb_stats", dir));
  j["most_evidence"][0]["arch"] = "hopper";
  j["lessons"] = -1;
  EXPECT_TRUE(testing::is_rejected_naming(j,
                                          {"most_evidence/0/arch: 'hopper' does not match",
                                           "lessons: -1 is less than the minimum of 0"},
                                          dir));

  // kb export is the KB's interchange document, not a result: it has its own schema.
  auto exported = run_kblaster({"kb", "export", repo.path().string(), "--json"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const auto document = nlohmann::json::parse(exported.out);
  EXPECT_EQ(document["trajectories"][0]["steps"].size(), 3u);
  EXPECT_TRUE(testing::is_valid_result(document, "kb_export", dir));

  auto text = run_kblaster({"kb", "stats", repo.path().string()});
  EXPECT_THAT(text.out,
              HasSubstr("memory.dram_saturated  vectorized_access  sm_90: 3 of 3, +22.1%"));
  EXPECT_THAT(text.out, HasSubstr("recent lessons:"));

  auto show = run_kblaster({"kb", "show", repo.path().string(), "--state", "memory.dram_saturated",
                            "--top", "100", "--json"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  bool exact = false;
  const auto shown = nlohmann::json::parse(show.out);
  EXPECT_TRUE(testing::is_valid_result(shown, "kb_show", dir));
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
