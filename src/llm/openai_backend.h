// The OpenAI-compatible chat completions API (POST {base_url}/chat/completions), which
// OpenAI, vLLM, llama.cpp's server, Ollama and NIM all speak. Default base URL:
// https://api.openai.com/v1.
#pragma once

#include "llm/http_backend.h"

namespace kblaster {

// Sends model, messages (the system text first, role "system"), temperature and max_tokens
// with "Authorization: Bearer <key>"; reads choices[0].message.content, finish_reason
// (stop_reason "length" when cut short), usage.prompt_tokens and completion_tokens, and model.
// Errors (Error::remote naming the backend and call, key redacted): HttpClient's after its
// retries; a body that is not JSON; no choices (an `error` object's message is quoted); a
// content that is null or empty (a refusal is quoted).
class OpenAiBackend final : public HttpLlmBackend {
 public:
  using HttpLlmBackend::HttpLlmBackend;
  std::string_view name() const override { return "openai"; }

 private:
  ApiCall prepare(const LlmRequest& request) const override;
  Result<LlmAnswer> read(const nlohmann::json& json, const ApiCall& call) const override;
};

}  // namespace kblaster
