#include "kb/store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>

#include "kb/dump.h"
#include "kb/kb_json.h"
#include "kb/merge.h"
#include "test_paths.h"

namespace kblaster {
namespace {

Trajectory trajectory(std::string id, std::int64_t created_at,
                      std::vector<std::pair<StepOutcome, double>> steps) {
  Trajectory t{std::move(id), "softmax", "sm_90", created_at, {}};
  std::int64_t i = 0;
  for (auto [outcome, reward] : steps)
    t.steps.push_back({i++, "memory_bound", "vectorize", outcome, reward, 10});
  return t;
}

class KbStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<Store> s = Store::open(dir_.path() / "nested" / "dirs" / "kb.sqlite");
    ASSERT_TRUE(s.ok()) << s.error().describe();
    store_.emplace(std::move(*s));
  }
  testing::TempDir dir_;
  std::optional<Store> store_;
};

TEST_F(KbStoreTest, OpenCreatesParentDirectoriesAndUsesWal) {
  EXPECT_TRUE(std::filesystem::exists(dir_.path() / "nested" / "dirs" / "kb.sqlite"));
  Result<Statement> st = store_->database().prepare("PRAGMA journal_mode");
  ASSERT_TRUE(st.ok());
  ASSERT_TRUE(*st->step());
  EXPECT_EQ(st->text(0), "wal");
  Result<std::string> check = store_->integrity_check();
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(*check, "ok");
}

TEST_F(KbStoreTest, StatsAccumulateOverStepsAndTrajectories) {
  const double a = std::log(1.5), b = std::log(0.8), c = std::log(1.1);
  ASSERT_TRUE(store_
                  ->record_trajectory(trajectory("t1", 100,
                                                 {{StepOutcome::faster, a},
                                                  {StepOutcome::compile_failure, 9.0},
                                                  {StepOutcome::slower, b}}))
                  .ok());
  ASSERT_TRUE(store_
                  ->record_trajectory(trajectory(
                      "t2", 50, {{StepOutcome::verify_failure, 9.0}, {StepOutcome::faster, c}}))
                  .ok());
  Result<TechniqueStats> s = store_->stats("memory_bound", "vectorize", "sm_90");
  ASSERT_TRUE(s.ok()) << s.error().describe();
  EXPECT_EQ(s->attempts, 5);
  EXPECT_EQ(s->compile_failures, 1);
  EXPECT_EQ(s->verify_failures, 1);
  EXPECT_EQ(s->faster, 2);
  EXPECT_EQ(s->slower, 1);
  EXPECT_EQ(s->measured, 3);
  EXPECT_EQ(s->last_seen, 100);
  const double mean = (a + b + c) / 3;
  EXPECT_NEAR(s->mean_log_speedup(), mean, 1e-12);
  const double var =
      ((a - mean) * (a - mean) + (b - mean) * (b - mean) + (c - mean) * (c - mean)) / 2;
  EXPECT_NEAR(s->variance_log_speedup(), var, 1e-12);
  Result<std::int64_t> n = store_->trajectory_count();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 2);
}

TEST_F(KbStoreTest, StatsAreKeyedByArchAndZeroWhenUnseen) {
  ASSERT_TRUE(store_->record_trajectory(trajectory("t1", 1, {{StepOutcome::faster, 0.1}})).ok());
  Result<TechniqueStats> other = store_->stats("memory_bound", "vectorize", "sm_80");
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(other->attempts, 0);
  EXPECT_EQ(other->mean_log_speedup(), 0.0);
}

TEST_F(KbStoreTest, RecordingTheSameTrajectoryTwiceChangesNothing) {
  const Trajectory t = trajectory("same-id", 1, {{StepOutcome::faster, 0.2}});
  Result<Recorded> first = store_->record_trajectory(t);
  Result<Recorded> second = store_->record_trajectory(t);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(*first, Recorded::added);
  EXPECT_EQ(*second, Recorded::already_present);
  EXPECT_EQ(store_->stats("memory_bound", "vectorize", "sm_90")->attempts, 1);
}

TEST_F(KbStoreTest, BadlyNumberedStepsAreRefusedAndNothingIsWritten) {
  Trajectory t = trajectory("bad", 1, {{StepOutcome::faster, 0.2}, {StepOutcome::faster, 0.2}});
  t.steps[1].step = 5;
  EXPECT_FALSE(store_->record_trajectory(t).ok());
  EXPECT_EQ(*store_->trajectory_count(), 0);
}

TEST_F(KbStoreTest, BestKernelKeepsTheBetter) {
  EXPECT_FALSE(store_->best_kernel("softmax")->has_value());
  EXPECT_EQ(*store_->offer_best_kernel({"softmax", "v1", "{}", 1.2}), Offered::kept_offer);
  EXPECT_EQ(*store_->offer_best_kernel({"softmax", "v0", "{}", 1.1}), Offered::kept_existing);
  EXPECT_EQ(*store_->offer_best_kernel({"softmax", "v2", "{\"ok\":1}", 1.5}), Offered::kept_offer);
  // A tie keeps the lexically smaller source, whatever the order of offers.
  EXPECT_EQ(*store_->offer_best_kernel({"softmax", "v3", "{}", 1.5}), Offered::kept_existing);
  Result<std::optional<BestKernel>> best = store_->best_kernel("softmax");
  ASSERT_TRUE(best.ok() && best->has_value());
  EXPECT_EQ((*best)->source, "v2");
  EXPECT_EQ((*best)->result_json, "{\"ok\":1}");
  EXPECT_DOUBLE_EQ((*best)->speedup, 1.5);
}

TEST_F(KbStoreTest, LessonsAreKeptOncePerContentOldestFirst) {
  ASSERT_TRUE(store_->add_lesson({"", "memory_bound", "vectorize", "later", 20}).ok());
  ASSERT_TRUE(store_->add_lesson({"", "memory_bound", "vectorize", "earlier", 10}).ok());
  ASSERT_TRUE(store_->add_lesson({"", "memory_bound", "vectorize", "earlier", 10}).ok());
  ASSERT_TRUE(store_->add_lesson({"", "compute_bound", "vectorize", "elsewhere", 5}).ok());
  Result<std::vector<Lesson>> got = store_->lessons("memory_bound", "vectorize");
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 2u);
  EXPECT_EQ((*got)[0].text, "earlier");
  EXPECT_EQ((*got)[1].text, "later");
  EXPECT_FALSE((*got)[0].id.empty());
}

// KB files key lessons by these ids, so the derivation must never change.
TEST_F(KbStoreTest, ALessonsContentIdIsPinned) {
  ASSERT_TRUE(store_->add_lesson({"", "memory_bound", "vectorize", "earlier", 10}).ok());
  Result<std::vector<Lesson>> got = store_->lessons("memory_bound", "vectorize");
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 1u);
  EXPECT_EQ((*got)[0].id, "747a98a928690efd");
}

TEST(KbStoreOpenTest, AnUncreatableDirectoryIsAnErrorNamingTheFile) {
  testing::TempDir dir;
  const auto blocker = dir.write("blocker", "a file, not a directory");
  const auto path = blocker / "kb.sqlite";
  Result<Store> store = Store::open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.error().kind, ErrorKind::io);
  EXPECT_NE(store.error().message.find(path.string()), std::string::npos) << store.error().message;
}

TEST(KbStoreOpenTest, AnUnopenableFileIsAnErrorNamingTheFile) {
  testing::TempDir dir;
  const auto path = dir.path() / "is_a_directory";
  std::filesystem::create_directories(path);
  Result<Store> store = Store::open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.error().kind, ErrorKind::io);
  EXPECT_NE(store.error().message.find(path.string()), std::string::npos) << store.error().message;
}

}  // namespace
}  // namespace kblaster

namespace kblaster {
namespace {

// What each kernel cost a sweep (eval/shard.h balances by it): the newest record of a
// (task, arch) wins, in the store, in a merge whichever way round, and through export.
TEST_F(KbStoreTest, AKernelsNewestCostWinsInTheStoreAMergeAndAnExport) {
  Store& kb = *store_;
  ASSERT_TRUE(kb.record_cost({"softmax", "sm_90", 40.0, 100}).ok());
  ASSERT_TRUE(kb.record_cost({"softmax", "sm_90", 55.0, 200}).ok());
  ASSERT_TRUE(kb.record_cost({"softmax", "sm_90", 10.0, 150}).ok()) << "an older record";
  ASSERT_TRUE(kb.record_cost({"softmax", "sm_80", 90.0, 300}).ok());
  ASSERT_TRUE(kb.record_cost({"axpy", "sm_90", 5.0, 100}).ok());
  auto on_90 = kb.costs("sm_90");
  ASSERT_TRUE(on_90.ok()) << on_90.error().describe();
  EXPECT_EQ(*on_90, (std::map<std::string, double>{{"axpy", 5.0}, {"softmax", 55.0}}));
  auto any = kb.costs("");
  ASSERT_TRUE(any.ok());
  EXPECT_EQ(any->at("softmax"), 90.0) << "the newest of any arch";

  KbContents a, b;
  a.kernel_costs = {{"softmax", "sm_90", 55.0, 200}, {"axpy", "sm_90", 5.0, 100}};
  b.kernel_costs = {{"softmax", "sm_90", 70.0, 250}, {"scale", "sm_90", 8.0, 90}};
  auto ab = merge_contents(a, b), ba = merge_contents(b, a);
  ASSERT_TRUE(ab.ok() && ba.ok());
  ASSERT_EQ(ab->kernel_costs.size(), 3u);
  for (const auto& merged : {*ab, *ba}) {
    const auto softmax = std::find_if(merged.kernel_costs.begin(), merged.kernel_costs.end(),
                                      [](const KernelCost& c) { return c.task == "softmax"; });
    ASSERT_NE(softmax, merged.kernel_costs.end());
    EXPECT_EQ(softmax->seconds, 70.0);
  }

  auto text = export_json(kb);
  ASSERT_TRUE(text.ok()) << text.error().describe();
  EXPECT_NE(text->find("\"kernel_costs\": ["), std::string::npos);
  auto back = kb_from_json(*text);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back->kernel_costs.size(), 3u);
}

}  // namespace
}  // namespace kblaster
