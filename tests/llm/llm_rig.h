// An HTTP LLM backend wired to a fake API on loopback for one test: the fake first, then
// fake time, the real CurlTransport and the backend, so the transport's connection closes
// before the server stops. Retries wait in fake time, so a retry-after costs no real time.
#pragma once

#include <memory>
#include <string>

#include "llm/http_backend.h"
#include "net/curl_transport.h"
#include "net/fake_time.h"
#include "support/fake_llm_api.h"

namespace kblaster::testing {

template <class Backend>
struct LlmRig {
  LlmRig(std::unique_ptr<FakeLlmApi> api, const std::string& key, double timeout_s = 10)
      : fake(std::move(api)),
        backend(LlmEndpoint{.base_url = fake->base_url(),
                            .model = "test-model",
                            .api_key = key,
                            .timeout_s = timeout_s},
                transport, time.services()) {}

  // Every log line and the error's message, for checking that the key is in none.
  std::string everything_said(const Result<LlmAnswer>& answer) const {
    std::string all;
    for (const auto& line : time.lines) all += line + "\n";
    if (!answer) all += answer.error().describe();
    return all;
  }

  std::unique_ptr<FakeLlmApi> fake;
  FakeTime time;
  CurlTransport transport;
  Backend backend;
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
