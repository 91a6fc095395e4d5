// One language model behind one interface: the search's LLM steps (apply a technique,
// repair a compile error, review a candidate, analyse a gap) ask through an LlmBackend and
// never see which API, process or replay answers. Backends: OpenAI-compatible chat
// completions, Anthropic messages, a `command` (prompt as JSON on stdin, answer on stdout),
// and a replay of stored answers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace kblaster {

// One turn of a conversation: role is "user" or "assistant" (the system text is apart).
struct LlmMessage {
  std::string role;
  std::string content;
};

// What one step asks. `purpose` names the step in logs and stores ("apply", "repair",
// "review", "gap"); it is not sent to the model.
struct LlmRequest {
  std::string purpose;
  std::string system;
  std::vector<LlmMessage> messages;
  double temperature = 0.2;
  int max_tokens = 4096;
  // When above 0, the seconds the whole call may take, retries and waits included (the
  // search's time left): backends cut their own timeouts to it. Not sent, not hashed.
  double time_limit_s = 0;
};

// `configured_s` (a backend's timeout), cut to request.time_limit_s when that is set.
inline double call_time_limit(double configured_s, const LlmRequest& request) {
  return request.time_limit_s > 0 && request.time_limit_s < configured_s ? request.time_limit_s
                                                                         : configured_s;
}

// Tokens one call used, as the API reported them (0 where it reported none).
struct TokenUsage {
  std::int64_t input = 0;
  std::int64_t output = 0;
};

// The model's answer: its text, the model that answered, why it stopped ("stop",
// "end_turn", "length", "max_tokens", …: a truncated answer says so here), the tokens, and
// the seconds the call took.
struct LlmAnswer {
  std::string text;
  std::string model;
  std::string stop_reason;
  TokenUsage usage;
  double seconds = 0;
};

// A model to ask. An answer that cannot be read (malformed JSON, no text, an empty answer)
// is an Error::remote naming the backend and the call, never a crash; a key is never in an
// Error's message.
class LlmBackend {
 public:
  virtual ~LlmBackend() = default;
  // The model's answer to `request`, after the backend's retries.
  virtual Result<LlmAnswer> complete(const LlmRequest& request) = 0;
  // "openai", "anthropic", "command" or "replay": how logs and results name the backend.
  virtual std::string_view name() const = 0;
};

}  // namespace kblaster
