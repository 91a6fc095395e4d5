// The OpenAI chat completions API on loopback (support/fake_llm_api.h), as its API reference
// describes it: POST /v1/chat/completions with "Authorization: Bearer KEY", a model and a
// non-empty messages array of {role, content}; answers with choices[0].message.content,
// finish_reason ("length" when truncated), usage.prompt_tokens and completion_tokens.
#pragma once

#include <memory>
#include <string>

#include "support/fake_llm_api.h"

namespace kblaster::testing {

inline constexpr const char* kFakeOpenAiKey = "sk-test-0penai-k3y-never-logged";

// usage.prompt_tokens: this many per request message; completion_tokens: the text's length.
inline constexpr int kFakePromptTokensPerMessage = 11;

// A fake that takes `key` and refuses any other with OpenAI's 401.
std::unique_ptr<FakeLlmApi> start_fake_openai(const std::string& key = kFakeOpenAiKey);

}  // namespace kblaster::testing
