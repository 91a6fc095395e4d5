// An HTTP LLM backend wired to a fake API on loopback for one test: the fake first, then
// fake time, the real CurlTransport and the backend, so the transport's connection closes
// before the server stops. Retries wait in fake time, so a retry-after costs no real time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "llm/backend_pool.h"
#include "llm/http_backend.h"
#include "net/curl_transport.h"
#include "net/fake_time.h"
#include "support/fake_llm_api.h"

namespace kblaster::testing {

// A backend with its own transport and fake time: one slot of a pool to the same fake.
template <class Backend>
struct OwnedHttpBackend final : LlmBackend {
  explicit OwnedHttpBackend(LlmEndpoint endpoint)
      : backend(std::move(endpoint), transport, time.services()) {}
  Result<LlmAnswer> complete(const LlmRequest& request) override {
    return backend.complete(request);
  }
  std::string_view name() const override { return backend.name(); }

  FakeTime time;
  CurlTransport transport;
  Backend backend;
};

template <class Backend>
struct LlmRig {
  LlmRig(std::unique_ptr<FakeLlmApi> api, const std::string& key, double timeout_s = 10)
      : fake(std::move(api)),
        backend(LlmEndpoint{.base_url = fake->base_url(),
                            .model = "test-model",
                            .api_key = key,
                            .timeout_s = timeout_s},
                transport, time.services()),
        key(key),
        timeout_s(timeout_s) {}

  // Every log line and the error's message, for checking that the key is in none.
  std::string everything_said(const Result<LlmAnswer>& answer) const {
    std::string all;
    for (const auto& line : time.lines) all += line + "\n";
    if (!answer) all += answer.error().describe();
    return all;
  }

  // `slots` backends to the same fake in a BackendPool, as a search uses the model (several
  // calls in flight). Made once; later calls return the same pool.
  LlmBackend& pooled(int slots = 3) {
    if (!pool) {
      std::vector<std::unique_ptr<LlmBackend>> per_slot;
      for (int i = 0; i < slots; ++i)
        per_slot.push_back(
            std::make_unique<OwnedHttpBackend<Backend>>(LlmEndpoint{.base_url = fake->base_url(),
                                                                    .model = "test-model",
                                                                    .api_key = key,
                                                                    .timeout_s = timeout_s}));
      pool = std::make_unique<BackendPool>(std::move(per_slot));
    }
    return *pool;
  }

  std::unique_ptr<FakeLlmApi> fake;
  FakeTime time;
  CurlTransport transport;
  Backend backend;
  std::string key;
  double timeout_s;
  std::unique_ptr<BackendPool> pool;  // before `fake` goes: its connections close first
};

// A request with a system text and one user turn.
inline LlmRequest sample_request() {
  return {.purpose = "apply",
          .system = "You optimise CUDA kernels.",
          .messages = {{.role = "user", .content = "Make this faster: __global__ void k() {}"}},
          .temperature = 0.3,
          .max_tokens = 512};
}

}  // namespace kblaster::testing
