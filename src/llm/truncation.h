// Whether a model's answer was cut off by the token limit, as each API says so.
#pragma once

#include "llm/llm_backend.h"

namespace kblaster {

// True when answer.stop_reason is "length" (OpenAI-compatible finish_reason) or
// "max_tokens" (Anthropic stop_reason, and the command protocol's spelling of either).
bool truncated(const LlmAnswer& answer);

}  // namespace kblaster
