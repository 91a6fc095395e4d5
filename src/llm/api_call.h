// One call to an LLM's HTTP API, shared by the OpenAI-compatible and Anthropic backends: a
// JSON body POSTed through kblaster's HttpClient (its retries on 429, 5xx and retry-after),
// the answer's JSON read within bounds, and errors that name the backend and the call with
// every secret redacted.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "core/status.h"
#include "net/http_client.h"
#include "net/http_message.h"

namespace kblaster {

// What every LLM API call is given: the service its errors name, the retries, the key as a
// secret. `timeout_s` is one attempt's total; the deadline of all attempts is at least
// three of them.
HttpClientOptions llm_client_options(const std::string& api_key, double timeout_s);

// One POST to an LLM API, as a backend prepares it.
struct ApiCall {
  std::string_view backend;  // "openai", "anthropic": named in every error
  std::string url;
  HttpHeaders headers;  // the credential among them; Content-Type is added
  nlohmann::json body;
  double timeout_s = 300;  // one attempt's total
  double whole_s = 0;      // when above 0, every attempt and wait together (HttpTimeouts::call)
};

// The answer's body as JSON (an object), after HttpClient's retries. Errors, with `secrets`
// redacted and the backend named: HttpClient's (Error::remote; Error::usage for a base URL
// that cannot be sent); Error::remote for a body that is not JSON, nests deeper than
// kMaxAnswerDepth, or is no object.
Result<nlohmann::json> post_json(HttpClient& http, const ApiCall& call,
                                 std::span<const std::string> secrets);

// Error::remote "LLM backend `openai`: POST <url> answered <what>", with `secrets` redacted:
// for an answer that came but cannot be used (no text, an empty text, a refusal).
Error answer_error(const ApiCall& call, const std::string& what,
                   std::span<const std::string> secrets);

// The integer at `object[key]`, 0 when absent or not a non-negative integer: token counts
// are reported where an API gives them and never fail a call.
std::int64_t token_count(const nlohmann::json& object, std::string_view key);

// The string at `object[key]`, "" when absent or not a string.
std::string string_field(const nlohmann::json& object, std::string_view key);

}  // namespace kblaster
