// Anthropic's Messages API (POST {base_url}/v1/messages). Default base URL:
// https://api.anthropic.com.
#pragma once

#include "llm/http_backend.h"

namespace kblaster {

// The API version kblaster speaks, sent as the anthropic-version header.
inline constexpr const char* kAnthropicVersion = "2023-06-01";

// Sends model, max_tokens, messages, the system text as the top-level `system` (when not
// empty) and temperature, with x-api-key and anthropic-version; reads the text blocks of
// content[] joined, stop_reason ("max_tokens" when cut short), usage.input_tokens and
// output_tokens, and model. Errors (Error::remote naming the backend and call, key
// redacted): HttpClient's after its retries (429 and 529 overloaded included); a body that is
// not JSON; an `error` object (its message quoted); no text block, or only empty text.
class AnthropicBackend final : public HttpLlmBackend {
 public:
  using HttpLlmBackend::HttpLlmBackend;
  std::string_view name() const override { return "anthropic"; }

 private:
  ApiCall prepare(const LlmRequest& request) const override;
  Result<LlmAnswer> read(const nlohmann::json& json, const ApiCall& call) const override;
};

}  // namespace kblaster
