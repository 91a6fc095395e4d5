#include "llm/anthropic_backend.h"

#include "core/input_limits.h"

namespace kblaster {
namespace {

// The text blocks of content[] joined; other blocks (thinking, tool_use) are skipped.
std::string text_of(const nlohmann::json& answer) {
  const auto content = answer.find("content");
  if (content == answer.end() || !content->is_array()) return {};
  std::string text;
  for (const nlohmann::json& block : *content)
    if (string_field(block, "type") == "text") text += string_field(block, "text");
  return text;
}

}  // namespace

ApiCall AnthropicBackend::prepare(const LlmRequest& request) const {
  nlohmann::json messages = nlohmann::json::array();
  for (const LlmMessage& m : request.messages)
    messages.push_back({{"role", m.role}, {"content", m.content}});
  ApiCall call{.backend = name(),
               .url = endpoint().base_url + "/v1/messages",
               .headers = {},
               .body = {{"model", endpoint().model},
                        {"max_tokens", request.max_tokens},
                        {"messages", std::move(messages)},
                        {"temperature", request.temperature}},
               .timeout_s = endpoint().timeout_s};
  if (!request.system.empty()) call.body["system"] = request.system;
  call.headers.add("x-api-key", endpoint().api_key);
  call.headers.add("anthropic-version", kAnthropicVersion);
  return call;
}

Result<LlmAnswer> AnthropicBackend::read(const nlohmann::json& json, const ApiCall& call) const {
  if (const auto error = json.find("error"); error != json.end()) {
    const std::string why = string_field(*error, "message");
    return answer_error(call, "an error: " + quote_input(why.empty() ? error->dump() : why, 200),
                        secrets());
  }
  LlmAnswer answer;
  answer.text = text_of(json);
  answer.stop_reason = string_field(json, "stop_reason");
  if (answer.text.empty())
    return answer_error(call, "no text (stop_reason `" + answer.stop_reason + "`)", secrets());
  answer.model = string_field(json, "model");
  const nlohmann::json usage = json.value("usage", nlohmann::json::object());
  answer.usage = {.input = token_count(usage, "input_tokens"),
                  .output = token_count(usage, "output_tokens")};
  return answer;
}

}  // namespace kblaster
