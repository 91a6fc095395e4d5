#include "llm/openai_backend.h"

#include "core/input_limits.h"

namespace kblaster {

ApiCall OpenAiBackend::prepare(const LlmRequest& request) const {
  nlohmann::json messages = nlohmann::json::array();
  if (!request.system.empty())
    messages.push_back({{"role", "system"}, {"content", request.system}});
  for (const LlmMessage& m : request.messages)
    messages.push_back({{"role", m.role}, {"content", m.content}});
  ApiCall call{.backend = name(),
               .url = endpoint().base_url + "/chat/completions",
               .headers = {},
               .body = {{"model", endpoint().model},
                        {"messages", std::move(messages)},
                        {"temperature", request.temperature},
                        {"max_tokens", request.max_tokens}},
               .timeout_s = endpoint().timeout_s};
  call.headers.add("Authorization", "Bearer " + endpoint().api_key);
  return call;
}

Result<LlmAnswer> OpenAiBackend::read(const nlohmann::json& json, const ApiCall& call) const {
  const auto choices = json.find("choices");
  if (choices == json.end() || !choices->is_array() || choices->empty()) {
    const auto error = json.find("error");
    const std::string why = error != json.end() ? string_field(*error, "message") : "";
    return answer_error(call, why.empty() ? "no choices" : "an error: " + quote_input(why, 200),
                        secrets());
  }
  const nlohmann::json& choice = choices->front();
  const nlohmann::json message =
      choice.is_object() ? choice.value("message", nlohmann::json::object()) : nlohmann::json{};
  LlmAnswer answer;
  answer.stop_reason = string_field(choice, "finish_reason");
  answer.text = string_field(message, "content");
  if (answer.text.empty()) {
    if (const std::string refusal = string_field(message, "refusal"); !refusal.empty())
      return answer_error(call, "a refusal: " + quote_input(refusal, 200), secrets());
    return answer_error(call, "no text (finish_reason `" + answer.stop_reason + "`)", secrets());
  }
  answer.model = string_field(json, "model");
  const nlohmann::json usage = json.value("usage", nlohmann::json::object());
  answer.usage = {.input = token_count(usage, "prompt_tokens"),
                  .output = token_count(usage, "completion_tokens")};
  return answer;
}

}  // namespace kblaster
