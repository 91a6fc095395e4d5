// `kblaster kb import` leaves the state before or the state after, never one
// between: a new KB is filled beside its path and renamed into place.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "cli_run.h"
#include "kb/kb_json.h"
#include "kb/merge.h"
#include "kb/store.h"
#include "test_paths.h"

namespace kblaster {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::run_kblaster;

// The names in `dir`, sorted.
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A KB JSON holding `count` trajectories of 5 steps, with their statistics.
std::string export_of(int count) {
  KbContents kb;
  for (int i = 0; i < count; ++i) {
    Trajectory t{"trajectory-" + std::to_string(100000 + i), "task", "sm_90", i, {}};
    for (int k = 0; k < 5; ++k)
      t.steps.push_back({k, "memory.dram_saturated", "restrict", StepOutcome::faster, 0.01, 10});
    kb.trajectories.push_back(std::move(t));
  }
  kb.stats = derive_stats(kb.trajectories);
  return kb_to_json(kb).value();
}

// A JSON whose last table repeats a key: the import fails after the tables
// before it were read, and leaves no KB and no temporary behind.
TEST(KbImportCli, ARepeatedIdIsExitTwoNamingTheFileAndTheIdAndLeavesNothing) {
  testing::TempDir dir;
  auto doc = nlohmann::json::parse(export_of(3));
  doc["best_kernels"] = nlohmann::json::array(
      {{{"task", "softmax"}, {"source", "a"}, {"result", "{}"}, {"speedup", 1.5}},
       {{"task", "softmax"}, {"source", "b"}, {"result", "{}"}, {"speedup", 2.0}}});
  const auto json = dir.write("repeated.json", doc.dump());
  const auto kb_dir = dir.path() / "kb";
  auto r = run_kblaster(
      {"kb", "import", "--kb", (kb_dir / "kb.sqlite").string(), "--from", json.string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(json.string() + ": table best_kernels, row #1 (softmax): the same "
                                               "key as row #0; each key may appear once"));
  EXPECT_TRUE(!fs::exists(kb_dir) || names_in(kb_dir).empty())
      << "left behind: " << ::testing::PrintToString(names_in(kb_dir));
}

TEST(KbImportCli, ASuccessfulImportLeavesOnlyTheKb) {
  testing::TempDir dir;
  const auto json = dir.write("kb.json", export_of(10));
  const auto kb = dir.path() / "kb" / "kb.sqlite";
  auto r = run_kblaster({"kb", "import", "--kb", kb.string(), "--from", json.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(names_in(kb.parent_path()), ::testing::ElementsAre("kb.sqlite"));
  auto store = Store::open(kb);
  ASSERT_TRUE(store.ok()) << store.error().describe();
  EXPECT_EQ(*store->trajectory_count(), 10);
}

// An empty file where the KB goes (a `touch`) is filled the same way.
TEST(KbImportCli, AnEmptyFileIsReplacedByTheImportedKb) {
  testing::TempDir dir;
  const auto json = dir.write("kb.json", export_of(2));
  const auto kb = dir.write("kb/kb.sqlite", "");
  auto r = run_kblaster({"kb", "import", "--kb", kb.string(), "--from", json.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto store = Store::open(kb);
  ASSERT_TRUE(store.ok()) << store.error().describe();
  EXPECT_EQ(*store->trajectory_count(), 2);
}

// Starts `kblaster kb import --kb kb --from json`, its output discarded.
pid_t start_import(const fs::path& kb, const fs::path& json) {
  const std::string binary = testing::kblaster_binary().string();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execl(binary.c_str(), binary.c_str(), "kb", "import", "--kb", kb.c_str(), "--from",
            json.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

// SIGKILL at random points of an import: the KB is absent, or holds everything.
TEST(KbImportCli, AKillAtAnyPointLeavesNoKbOrTheWholeImport) {
  testing::TempDir dir;
  constexpr int kTrajectories = 4000;
  const auto json = dir.write("kb.json", export_of(kTrajectories));
  // How long a whole import takes here, so the kills spread over it.
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(run_kblaster({"kb", "import", "--kb", (dir.path() / "timed.sqlite").string(), "--from",
                          json.string()})
                .exit_code,
            0);
  const auto whole = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - start);
  std::mt19937 rng(16);
  std::uniform_int_distribution<long> delay(0, whole.count() * 3 / 2);  // some finish
  int killed = 0, absent = 0, complete = 0;
  for (int round = 0; round < 30; ++round) {
    const auto kb = dir.path() / std::to_string(round) / "kb.sqlite";
    const pid_t pid = start_import(kb, json);
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::microseconds(delay(rng)));
    ::kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    killed += WIFSIGNALED(status);
    if (!fs::exists(kb)) {
      ++absent;
      continue;
    }
    auto store = Store::open(kb);
    ASSERT_TRUE(store.ok()) << "round " << round << ": " << store.error().describe();
    EXPECT_EQ(*store->trajectory_count(), kTrajectories)
        << "round " << round << ": a KB with part of the import";
    ++complete;
  }
  EXPECT_GT(killed, 0) << "no kill landed while the import ran";
  std::cout << "killed " << killed << " of 30 imports: " << absent << " left no KB, " << complete
            << " the whole import\n";
}

}  // namespace
}  // namespace kblaster
