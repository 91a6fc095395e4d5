#include "support/fake_openai.h"

namespace kblaster::testing {
namespace {

using nlohmann::json;

std::string error_body(const std::string& type, const std::string& message) {
  return json{
      {"error", {{"message", message}, {"type", type}, {"param", nullptr}, {"code", nullptr}}}}
      .dump();
}

// Why OpenAI would refuse `body`, or "".
std::string invalid(const json& body) {
  if (!body.is_object()) return "We could not parse the JSON body of your request.";
  if (!body.contains("model") || !body["model"].is_string() || body["model"] == "")
    return "you must provide a model parameter";
  const auto& messages = body.value("messages", json());
  if (!messages.is_array() || messages.empty()) return "'messages' must be a non-empty array";
  for (const auto& m : messages) {
    const std::string role = m.value("role", "");
    if (role != "system" && role != "user" && role != "assistant" && role != "developer")
      return "Invalid value for 'messages[].role': '" + role + "'";
    if (!m.contains("content") || !m["content"].is_string())
      return "Invalid type for 'messages[].content'";
  }
  if (body.contains("max_tokens") &&
      (!body["max_tokens"].is_number_integer() || body["max_tokens"].get<int>() < 1))
    return "Invalid 'max_tokens'";
  if (body.contains("temperature") &&
      (!body["temperature"].is_number() || body["temperature"].get<double>() < 0 ||
       body["temperature"].get<double>() > 2))
    return "Invalid 'temperature'";
  return "";
}

}  // namespace

std::unique_ptr<FakeLlmApi> start_fake_openai(const std::string& key) {
  LlmDialect dialect{
      .base_path = "/v1",
      .path = "/chat/completions",
      .check = [key](const LlmRequestRecord& r) -> std::optional<Refusal> {
        if (r.header("Authorization") != "Bearer " + key)
          return Refusal{401, error_body("invalid_request_error", "Incorrect API key provided")};
        if (const std::string why = invalid(r.json()); !why.empty())
          return Refusal{400, error_body("invalid_request_error", why)};
        return std::nullopt;
      },
      .answer =
          [](const json& request, const std::string& text, bool truncated) {
            const auto prompt =
                static_cast<int>(request["messages"].size()) * kFakePromptTokensPerMessage;
            const auto completion = static_cast<int>(text.size());
            return json{
                {"id", "chatcmpl-1"},
                {"object", "chat.completion"},
                {"created", 1700000000},
                {"model", request["model"]},
                {"choices",
                 {{{"index", 0},
                   {"message", {{"role", "assistant"}, {"content", text}, {"refusal", nullptr}}},
                   {"logprobs", nullptr},
                   {"finish_reason", truncated ? "length" : "stop"}}}},
                {"usage",
                 {{"prompt_tokens", prompt},
                  {"completion_tokens", completion},
                  {"total_tokens", prompt + completion}}}}
                .dump();
          },
      .error = error_body};
  return std::make_unique<FakeLlmApi>(std::move(dialect));
}

}  // namespace kblaster::testing
