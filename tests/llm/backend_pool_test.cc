// BackendPool: at most `slots` calls at once, and a backend of its own for each call in flight
// when the backends are not thread-safe.
#include "llm/backend_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace kblaster {
namespace {

// Answers after `nap`, counting the calls in flight across every Napper of a test and
// whether this one was ever entered by two calls at once.
class Napper final : public LlmBackend {
 public:
  Napper(std::atomic<int>& in_flight, std::atomic<int>& most) : in_flight_(in_flight), most_(most) {}
  Result<LlmAnswer> complete(const LlmRequest& request) override {
    if (busy_.exchange(true)) shared_ = true;
    const int now = ++in_flight_;
    for (int seen = most_.load(); now > seen && !most_.compare_exchange_weak(seen, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    --in_flight_;
    busy_ = false;
    return LlmAnswer{.text = "answer to " + request.purpose};
  }
  std::string_view name() const override { return "napper"; }
  std::atomic<bool> shared_{false};  // two calls were in this backend at once

 private:
  std::atomic<int>& in_flight_;
  std::atomic<int>& most_;
  std::atomic<bool> busy_{false};
};

// `calls` calls to `pool` from as many threads; every answer must come back.
void call_at_once(LlmBackend& pool, int calls) {
  std::vector<std::thread> threads;
  for (int i = 0; i < calls; ++i)
    threads.emplace_back([&pool, i] {
      auto a = pool.complete({.purpose = "call " + std::to_string(i)});
      ASSERT_TRUE(a.ok());
      EXPECT_EQ(a->text, "answer to call " + std::to_string(i));
    });
  for (auto& t : threads) t.join();
}

TEST(BackendPool, OneBackendPerSlotIsNeverUsedByTwoCallsAtOnce) {
  std::atomic<int> in_flight{0}, most{0};
  std::vector<Napper*> napper;
  std::vector<std::unique_ptr<LlmBackend>> per_slot;
  for (int i = 0; i < 3; ++i) {
    auto n = std::make_unique<Napper>(in_flight, most);
    napper.push_back(n.get());
    per_slot.push_back(std::move(n));
  }
  BackendPool pool(std::move(per_slot));
  EXPECT_EQ(pool.slots(), 3);
  call_at_once(pool, 9);
  EXPECT_EQ(most.load(), 3) << "three slots, all used, never a fourth call";
  for (const Napper* n : napper) EXPECT_FALSE(n->shared_.load());
  EXPECT_EQ(pool.name(), "napper");
}

TEST(BackendPool, AThreadSafeBackendIsSharedByItsSlots) {
  std::atomic<int> in_flight{0}, most{0};
  BackendPool pool(std::make_unique<Napper>(in_flight, most), 2);
  call_at_once(pool, 6);
  EXPECT_EQ(most.load(), 2);
}

}  // namespace
}  // namespace kblaster
