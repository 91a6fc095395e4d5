// What the OpenAI-compatible and Anthropic backends share: where the API is, the key, one
// HttpClient, and a call's course (request out, JSON in, the answer read, its time taken).
// Each API's wire format is a subclass's two functions.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "core/clock.h"
#include "llm/api_call.h"
#include "llm/llm_backend.h"
#include "net/client_services.h"
#include "net/http_client.h"

namespace kblaster {

// An HTTP model: the API's base URL (no trailing '/'), the model, the key (a secret: sent
// only in the API's credential header, never in a message), one attempt's total timeout.
struct LlmEndpoint {
  std::string base_url;
  std::string model;
  std::string api_key;
  double timeout_s = 300;
};

// Borrows `transport`, which must outlive it. Not thread-safe (nor is its HttpClient).
class HttpLlmBackend : public LlmBackend {
 public:
  HttpLlmBackend(LlmEndpoint endpoint, HttpTransport& transport, HttpClientServices services);

  // prepare, post_json, read; then the model the endpoint names where the API named none,
  // and the seconds the call took (retries included).
  Result<LlmAnswer> complete(const LlmRequest& request) final;

 protected:
  // The call for `request`: URL, headers (the credential among them) and body.
  virtual ApiCall prepare(const LlmRequest& request) const = 0;
  // The answer in `json`, or answer_error(call, …) when it holds none.
  virtual Result<LlmAnswer> read(const nlohmann::json& json, const ApiCall& call) const = 0;

  const LlmEndpoint& endpoint() const { return endpoint_; }
  // The secrets of every message: the key.
  std::span<const std::string> secrets() const { return {&endpoint_.api_key, 1}; }

 private:
  LlmEndpoint endpoint_;
  Clock& clock_;
  HttpClient http_;
};

}  // namespace kblaster
