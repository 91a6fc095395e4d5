// Builds run ahead in the background, at most `workers` at once, and are taken once.
#include "gpu/build_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace kblaster {
namespace {

// "k3"; appended, not `"k" + std::to_string(i)`, which trips GCC 12's -Wrestrict.
std::string key(int i) { return std::string("k").append(std::to_string(i)); }
std::string job_name(int i) { return std::string("job ").append(std::to_string(i)); }

BuildResult built(const std::string& summary) {
  BuildResult r;
  r.summary = summary;
  return r;
}

// Holds the pool's one worker with a job under `key` that returns `summary` once `released`
// (or after 10 s, so a test that never releases fails instead of hanging). True once it runs.
bool occupy_worker(BuildPool& pool, const std::string& key, std::shared_future<void> released,
                   const std::string& summary) {
  auto running = std::make_shared<std::atomic<bool>>(false);
  pool.start(key, [running, released, summary]() -> Result<BuildResult> {
    *running = true;
    released.wait_for(std::chrono::seconds(10));
    return built(summary);
  });
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!running->load() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return running->load();
}

TEST(BuildPool, RunsJobsConcurrentlyUpToItsWorkers) {
  std::atomic<int> running{0}, most{0};
  BuildPool pool(2);
  for (int i = 0; i < 6; ++i)
    pool.start(key(i), [&, i]() -> Result<BuildResult> {
      const int now = ++running;
      int seen = most.load();
      while (now > seen && !most.compare_exchange_weak(seen, now)) {
      }
      // Wait (bounded) for a partner: with two workers, jobs run in pairs.
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      while (running.load() < 2 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      --running;
      return built(job_name(i));
    });
  // Taken once all ran: a take() of a queued job runs it on the taker's thread, a third at once.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (int i = 0; i < 6; ++i)
    while (!pool.ready(key(i)) && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  for (int i = 0; i < 6; ++i) {
    auto r = pool.take(key(i));
    ASSERT_TRUE(r.has_value());
    ASSERT_TRUE(r->ok());
    EXPECT_EQ((*r)->summary, job_name(i));
  }
  EXPECT_EQ(most.load(), 2) << "two workers: two jobs overlapped, never three";
  EXPECT_EQ(pool.started(), 6);
}

TEST(BuildPool, AKeyIsStartedOnceAndTakenOnce) {
  BuildPool pool(1);
  int calls = 0;
  pool.start("a", [&]() -> Result<BuildResult> {
    ++calls;
    return built("first");
  });
  pool.start("a", [&]() -> Result<BuildResult> {
    ++calls;
    return built("second");
  });
  auto r = pool.take("a");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ((*r)->summary, "first");
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(pool.take("a").has_value());
  EXPECT_FALSE(pool.take("never").has_value());
}

TEST(BuildPool, ClosingDropsQueuedJobsAndWaitsForRunningOnes) {
  std::atomic<int> ran{0};
  {
    BuildPool pool(1);
    for (int i = 0; i < 8; ++i)
      pool.start(key(i), [&]() -> Result<BuildResult> {
        ++ran;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return built("x");
      });
    EXPECT_EQ(pool.pending(), 8u);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (ran.load() == 0 && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }  // closes: the running job finishes, the queued ones do not run
  EXPECT_GE(ran.load(), 1);
  EXPECT_LT(ran.load(), 8);
}

// Issue 21 B2: guesses the search did not follow are finished and never taken. Counted as in
// flight, they used to stop prefetching for good after a few steps that moved the parent.
TEST(BuildPool, AFinishedJobNobodyTookHoldsNoWorker) {
  BuildPool pool(1);
  pool.start("guess", []() -> Result<BuildResult> { return built("guess"); });
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!pool.ready("guess") && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(pool.ready("guess"));
  EXPECT_EQ(pool.pending(), 1u) << "still there to be taken";
  EXPECT_EQ(pool.in_flight(), 0u) << "but holding no worker";
  EXPECT_FALSE(pool.ready("never started"));
}

// The child the GPU waits for must not wait behind guesses queued before it.
TEST(BuildPool, AQueuedJobIsRunByItsTakerAtOnce) {
  BuildPool pool(1);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  ASSERT_TRUE(occupy_worker(pool, "slow guess", released, "slow"))
      << "the one worker is busy with the guess";
  std::thread::id ran_on;
  pool.start("needed", [&]() -> Result<BuildResult> {
    ran_on = std::this_thread::get_id();
    return built("needed");
  });
  EXPECT_EQ(pool.in_flight(), 2u);
  const auto asked = std::chrono::steady_clock::now();
  auto needed = pool.take("needed");  // would block until release if it waited for the worker
  EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::seconds(5))
      << "waited behind the guess";
  ASSERT_TRUE(needed.has_value());
  ASSERT_TRUE(needed->ok());
  EXPECT_EQ((*needed)->summary, "needed");
  EXPECT_EQ(ran_on, std::this_thread::get_id()) << "run on the taker's thread";
  EXPECT_EQ(pool.in_flight(), 1u) << "only the guess, still running";
  release.set_value();
  auto slow = pool.take("slow guess");
  ASSERT_TRUE(slow.has_value());
  EXPECT_EQ((*slow)->summary, "slow");
}

// A step's new guesses must not be refused because an earlier step's fill the queue.
TEST(BuildPool, QueuedGuessesNotKeptAreDroppedAndRunningOnesStay) {
  BuildPool pool(1);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> ran{0};
  ASSERT_TRUE(occupy_worker(pool, "running guess", released, "running"));
  for (const char* k : {"stale", "kept"})
    pool.start(k, [&]() -> Result<BuildResult> {
      ++ran;
      return built("queued");
    });
  EXPECT_EQ(pool.in_flight(), 3u);
  pool.drop_queued_except({"kept"});
  EXPECT_EQ(pool.in_flight(), 2u) << "the running guess and the kept one";
  EXPECT_EQ(pool.pending(), 2u);
  EXPECT_FALSE(pool.take("stale").has_value()) << "dropped";
  release.set_value();
  auto kept = pool.take("kept");
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ((*kept)->summary, "queued");
  auto first = pool.take("running guess");
  ASSERT_TRUE(first.has_value()) << "a running job is never dropped";
  EXPECT_EQ((*first)->summary, "running");
  EXPECT_EQ(ran.load(), 1) << "the dropped guess never ran";
}

// The search hands over its guesses most likely first; a worker that frees up must take the
// earliest still queued, or the child the next step takes can wait behind later guesses
// (issue 21 B2: a 7-s wait on the H200 for a child asked for a step ahead).
TEST(BuildPool, QueuedJobsStartInTheOrderTheyWereStarted) {
  std::mutex m;  // before the pool, so they outlive any job it still runs
  std::vector<int> order;
  BuildPool pool(1);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  ASSERT_TRUE(occupy_worker(pool, "running", released, "running"));
  for (int i = 0; i < 8; ++i)
    pool.start(key(i), [&, i]() -> Result<BuildResult> {
      std::lock_guard lock(m);
      order.push_back(i);
      return built(job_name(i));
    });
  pool.drop_queued_except({key(1), key(3), key(4), key(6), key(7)});  // a later step's guesses
  // Let every queued job's thread reach its wait before the worker frees up.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  release.set_value();
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (int i : {1, 3, 4, 6, 7})
    while (!pool.ready(key(i)) && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::lock_guard lock(m);
  EXPECT_EQ(order, (std::vector<int>{1, 3, 4, 6, 7}));
}

TEST(BuildPool, WorkersAreTheCoresButOne) {
  EXPECT_EQ(build_workers_for(16), 15u);
  EXPECT_EQ(build_workers_for(2), 1u);
  EXPECT_EQ(build_workers_for(1), 1u);
  EXPECT_EQ(build_workers_for(0), 1u) << "hardware_concurrency() may not know";
}

TEST(BuildPool, AFailedBuildComesBackAsItsError) {
  BuildPool pool(1);
  pool.start("x", []() -> Result<BuildResult> { return Error::environment("nvcc vanished"); });
  auto r = pool.take("x");
  ASSERT_TRUE(r.has_value());
  ASSERT_FALSE(r->ok());
  EXPECT_EQ(r->error().message, "nvcc vanished");
}

}  // namespace
}  // namespace kblaster
