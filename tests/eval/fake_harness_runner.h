// A scripted, in-process HarnessRunner that records every request it is sent,
// and a FakeClock, so the steps that talk to kblaster-harness can be tested
// without a GPU or a child process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/clock.h"
#include "core/status.h"
#include "gpu/device_probe.h"
#include "gpu/harness_session.h"

namespace kblaster::testing {

// A machine without a GPU, for Sessions whose step never probes one.
class NoDevice final : public DeviceProbe {
 public:
  DeviceInfo probe() override {
    DeviceInfo info;
    info.why_absent = "a test machine: no CUDA device";
    return info;
  }
};

// Time that moves only when told: by `step` on every now_seconds() call (0 =
// never by itself), and by advance(). Starts at 1000 s, an arbitrary origin.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(double step = 0.0) : step_(step) {}
  double now_seconds() override {
    ++reads_;
    const double t = now_;
    now_ += step_;
    return t;
  }
  void advance(double seconds) { now_ += seconds; }
  double peek() const { return now_; }
  int reads() const { return reads_; }

 private:
  double step_;
  double now_ = 1000.0;
  int reads_ = 0;
};

// Answers each request from a handler for its "op" (else the default handler,
// else {"ok": true}); adds "ok": true to answers that lack it. A handler's
// Error counts as HarnessFailure::refused. fail_next() makes a later call of an
// op fail with a chosen failure instead; timeout, crashed and bad_response end
// the fake "process", so the next call bumps generation() as the real one does.
// After `max_calls` calls every call is refused, so a loop that never stops
// fails its test instead of hanging it. Not thread-safe.
class FakeHarnessRunner final : public HarnessRunner {
 public:
  using Json = nlohmann::json;
  using Handler = std::function<Result<Json>(const Json& request)>;

  // Every request, in order, and the timeout it was sent with.
  std::vector<Json> requests;
  std::vector<double> timeouts;
  int restarts = 0;  // calls of restart()
  std::size_t max_calls = 10000;

  void on(const std::string& op, Handler handler) { handlers_[op] = std::move(handler); }
  void otherwise(Handler handler) { default_ = std::move(handler); }

  // The `skip`+1-th call of `op` from now fails with `failure` and an Error::io
  // carrying `message`, without reaching its handler.
  void fail_next(const std::string& op, HarnessFailure failure, std::string message, int skip = 0) {
    cues_.push_back({op, failure, std::move(message), skip});
  }

  // With a clock: every sample request advances it by `wall_per_launch` seconds
  // per entry of its `order` (GPU time plus the harness's per-launch overhead).
  void drive_clock(FakeClock& clock, double wall_per_launch) {
    clock_ = &clock;
    wall_per_launch_ = wall_per_launch;
  }

  Result<Json> call(const Json& request, double timeout_s) override {
    requests.push_back(request);
    timeouts.push_back(timeout_s);
    if (!alive_) {
      alive_ = true;
      ++generation_;
    }
    const std::string op = request.value("op", "?");
    if (clock_ && op == "sample") clock_->advance(wall_per_launch_ * request.at("order").size());
    if (requests.size() > max_calls)
      return fail(HarnessFailure::refused,
                  "fake harness: more than max_calls calls; a loop that never stops?");
    for (auto it = cues_.begin(); it != cues_.end(); ++it) {
      if (it->op != op) continue;
      if (it->skip-- > 0) continue;
      const Cue cue = *it;
      cues_.erase(it);
      return fail(cue.failure, cue.message);
    }
    const auto handler = handlers_.find(op);
    // Unscripted, a guard_damage answers as a harness that saw none.
    const Json plain =
        op == "guard_damage" ? Json{{"ok", true}, {"verdict", nullptr}} : Json{{"ok", true}};
    Result<Json> answer = handler != handlers_.end() ? handler->second(request)
                          : default_                 ? default_(request)
                                                     : Result<Json>(plain);
    if (!answer) {  // a refusal, of the kind the handler says (as a real harness's cause does)
      last_failure_ = HarnessFailure::refused;
      return answer.error();
    }
    if (!answer->contains("ok")) (*answer)["ok"] = true;
    last_failure_ = HarnessFailure::none;
    return answer;
  }
  HarnessFailure last_failure() const override { return last_failure_; }
  std::uint64_t generation() const override { return generation_; }
  void restart() override {
    ++restarts;
    alive_ = false;
  }

  // The recorded requests whose "op" is `op`, in order.
  std::vector<Json> sent(const std::string& op) const {
    std::vector<Json> out;
    for (const auto& r : requests)
      if (r.value("op", "") == op) out.push_back(r);
    return out;
  }
  // The recorded ops, in order: {"setup", "bench_prepare", "sample", ...}.
  std::vector<std::string> ops() const {
    std::vector<std::string> out;
    for (const auto& r : requests) out.push_back(r.value("op", "?"));
    return out;
  }

 private:
  struct Cue {
    std::string op;
    HarnessFailure failure;
    std::string message;
    int skip;
  };

  Result<Json> fail(HarnessFailure failure, const std::string& message) {
    last_failure_ = failure;
    // Refusals keep the harness serving, as a real one does.
    if (failure != HarnessFailure::refused && failure != HarnessFailure::base_failed &&
        failure != HarnessFailure::reference_suspect)
      alive_ = false;
    // As a real session says a base's failure: the base revision's, not kblaster's.
    return failure == HarnessFailure::base_failed ? Error::config("", message) : Error::io(message);
  }

  std::map<std::string, Handler> handlers_;
  Handler default_;
  std::deque<Cue> cues_;
  FakeClock* clock_ = nullptr;
  double wall_per_launch_ = 0.0;
  bool alive_ = false;
  std::uint64_t generation_ = 0;
  HarnessFailure last_failure_ = HarnessFailure::none;
};

// A `verdict` object as the harness writes it.
inline nlohmann::json harness_verdict(bool passed, const std::string& reason,
                                      const std::string& message = "",
                                      nlohmann::json detail = nlohmann::json::object()) {
  return {
      {"passed", passed}, {"reason", reason}, {"message", message}, {"detail", std::move(detail)}};
}

}  // namespace kblaster::testing
