#include "eval/repeat_guard.h"

#include <gtest/gtest.h>

#include "eval/fake_harness_runner.h"

namespace kblaster {
namespace {

using nlohmann::json;
using testing::FakeHarnessRunner;

// One run: a comparison's harness calls, the last of which ends the harness
// (a crash in the recheck) when `ends` is set.
void run(HarnessClient& client, FakeHarnessRunner& runner, bool ends) {
  ASSERT_TRUE(client.restore_if_lost().ok());
  if (ends) runner.fail_next("recheck", HarnessFailure::crashed, "exited (signal 11)");
  ASSERT_TRUE(client.recheck(0, Tolerance{}).ok());
}

TEST(RepeatGuard, StopsOnlyAfterTheHarnessEndedInTwoRunsInARow) {
  FakeHarnessRunner runner;
  runner.on("recheck", [](const json&) -> Result<json> {
    return json{{"verdict", testing::harness_verdict(true, "passed")}};
  });
  HarnessClient client{runner};
  ASSERT_TRUE(client.load({"a.so", "b.so"}, std::nullopt).ok());
  RepeatGuard guard;
  run(client, runner, true);
  EXPECT_FALSE(guard.stop_after_run(client)) << "one ending may be chance";
  run(client, runner, false);
  EXPECT_FALSE(guard.stop_after_run(client)) << "the run after it went through";
  run(client, runner, true);
  EXPECT_FALSE(guard.stop_after_run(client));
  run(client, runner, true);
  EXPECT_TRUE(guard.stop_after_run(client));
  EXPECT_EQ(guard.why(), "the harness ended in 2 runs in a row, so the runs left would too");
  EXPECT_EQ(runner.sent("load").size(), 3u) << "the first, then one after each ending but the last";
}

}  // namespace
}  // namespace kblaster
