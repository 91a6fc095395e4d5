// Anthropic's Messages API on loopback (support/fake_llm_api.h), as its API reference
// describes it: POST /v1/messages with x-api-key and anthropic-version headers, a model,
// max_tokens, messages of user/assistant turns, and the system text top-level; answers with
// content[] text blocks (split in two, to show they are joined), stop_reason ("max_tokens"
// when truncated) and usage.input_tokens and output_tokens.
#pragma once

#include <memory>
#include <string>

#include "support/fake_llm_api.h"

namespace kblaster::testing {

inline constexpr const char* kFakeAnthropicKey = "sk-ant-test-k3y-never-logged";

// usage.input_tokens: this many per request message; output_tokens: the text's length.
inline constexpr int kFakeInputTokensPerMessage = 13;

// A fake that takes `key` and refuses any other with Anthropic's 401.
std::unique_ptr<FakeLlmApi> start_fake_anthropic(const std::string& key = kFakeAnthropicKey);

}  // namespace kblaster::testing
