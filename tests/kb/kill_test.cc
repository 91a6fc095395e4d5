// A writer killed with SIGKILL at random points 100 times must leave a KB that
// passes PRAGMA integrity_check and holds no half-written trajectory.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <thread>

#include "kb/store.h"
#include "kb_writer_steps.h"
#include "test_paths.h"

namespace kblaster {
namespace {

pid_t start_writer(const std::string& kb) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl(KBLASTER_KB_WRITER, KBLASTER_KB_WRITER, kb.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

// Number of rows the one-column query answers with.
std::int64_t count(const Store& store, const char* sql) {
  Result<Statement> st = store.database().prepare(sql);
  EXPECT_TRUE(st.ok()) << st.error().describe();
  if (!st) return -1;
  Result<bool> row = st->step();
  EXPECT_TRUE(row.ok() && *row);
  return st->int64(0);
}

TEST(KbKillTest, SigkillAtRandomPointsLeavesAValidKbWithWholeTrajectories) {
  testing::TempDir dir;
  const std::string kb = (dir.path() / "kb.sqlite").string();
  std::mt19937 rng(20261130);
  std::uniform_int_distribution<int> delay_ms(5, 80);
  std::int64_t last_count = 0;
  for (int round = 0; round < 100; ++round) {
    const pid_t pid = start_writer(kb);
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(rng)));
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    // Killed, not exited: an exit means the writer failed (it prints why).
    ASSERT_TRUE(WIFSIGNALED(status))
        << "round " << round << ": writer exited with " << WEXITSTATUS(status);

    Result<Store> store = Store::open(kb);
    ASSERT_TRUE(store.ok()) << "round " << round << ": " << store.error().describe();
    Result<std::string> check = store->integrity_check();
    ASSERT_TRUE(check.ok()) << check.error().describe();
    ASSERT_EQ(*check, "ok") << "round " << round;
    EXPECT_EQ(count(*store,
                    "SELECT count(*) FROM trajectories t WHERE step_count != 5 OR "
                    "(SELECT count(*) FROM trajectory_steps s WHERE s.trajectory_id = t.id) != 5"),
              0)
        << "round " << round << ": a trajectory lacks steps";
    EXPECT_EQ(count(*store,
                    "SELECT count(*) FROM trajectory_steps s WHERE NOT EXISTS "
                    "(SELECT 1 FROM trajectories t WHERE t.id = s.trajectory_id)"),
              0)
        << "round " << round << ": orphan steps";
    // Statistics move with the steps: one attempt per stored step.
    EXPECT_EQ(count(*store, "SELECT coalesce(sum(attempts), 0) FROM stats"),
              count(*store, "SELECT count(*) FROM trajectory_steps"));
    Result<std::int64_t> n = store->trajectory_count();
    ASSERT_TRUE(n.ok());
    EXPECT_GE(*n, last_count);  // committed trajectories survive the kill
    last_count = *n;
  }
  EXPECT_GT(last_count, 0) << "the writer never committed a trajectory";
  static_assert(kb_test::kStepsPerTrajectory == 5, "the queries above say 5");
}

}  // namespace
}  // namespace kblaster
